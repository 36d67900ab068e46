/// Prints a program two ways: as the promise code it stands for (to read), and as a `Program` literal (to paste
/// into a regression test: `#expect(Simulation.mismatch(in: program) == nil)`).
enum Printer {
  static func swiftSource(_ program: Program) -> String {
    var lines = ["// seed \(program.seed)" + notes(program)]
    for (index, share) in program.shares.enumerated() {
      lines.append("let shared\(index) = \(promise(share)).shared()")
    }
    for (index, definition) in program.futures.enumerated() {
      lines.append("let future\(index) = \(promise(definition.node)).start()\(futureOps(definition.ops))")
      for branch in definition.branches {
        switch branch {
        case .observe(let fn): lines.append("future\(index).observe { _ in f\(fn)() }")
        case .op(let op): lines.append("_ = future\(index)\(futureOps([op]))")
        }
      }
    }
    lines.append("let handle = \(promise(program.root)).run { deliver($0) }")
    if let cancelAt = program.cancelAt {
      lines.append("scheduler.enqueue(after: .milliseconds(\(cancelAt))) { handle.cancel() }")
    }
    lines.append("scheduler.run()")
    return lines.joined(separator: "\n")
  }

  private static func notes(_ program: Program) -> String {
    switch program.depthKiB {
    case nil: ""
    case let kib?: ", run inside another run's handler, \(kib) KiB deeper (tasks complete there too)"
    }
  }

  private static func result(_ result: SimResult) -> String {
    switch result {
    case .success(let value): ".success(\(value))"
    case .failure(let error): ".failure(E(\(error.code)))"
    }
  }

  private static func list(_ nodes: [Node]) -> String { nodes.map(promise).joined(separator: ", ") }

  static func promise(_ node: Node) -> String {
    switch node {
    case .value(let value): "Promise(value: \(value))"
    case .error(let code): "Promise(error: E(\(code)))"
    case .task(let leaf):
      switch leaf.behavior {
      case .sync(let r): "task\(leaf.id)(sync: \(result(r))\(leaf.cancelHandler ? ", onCancel" : ""))"
      case .later(let ticks, let r):
        "task\(leaf.id)(after: \(ticks)ms, \(result(r))\(leaf.cancelHandler ? ", onCancel" : ""))"
      case .never: "task\(leaf.id)(never\(leaf.cancelHandler ? ", onCancel" : ""))"
      case .neverAdvancing(let ticks):
        "task\(leaf.id)(never, advancing: \(ticks)ms\(leaf.cancelHandler ? ", onCancel" : ""))"
      case .drop: "task\(leaf.id)(dropsCompletion\(leaf.cancelHandler ? ", onCancel" : ""))"
      case .twice(let first, let ticks, let second):
        "task\(leaf.id)(sync: \(result(first)), again after: \(ticks)ms, \(result(second))"
          + "\(leaf.cancelHandler ? ", onCancel" : ""))"
      }
    case .catching(let id, let r): "Promise.catching { task\(id)(\(result(r))) }"
    case .map(let input, let fn, .named): "\(promise(input)).map(f\(fn))"
    case .map(let input, let fn, .then): "\(promise(input)).then { (v: Int) -> Int in f\(fn)(v) }"
    case .thenResult(let input, let fn): "\(promise(input)).then { (v: Int) -> Result<Int, E> in f\(fn)(v) }"
    case .flatMap(let input, let fn, let inner, .named):
      "\(promise(input)).flatMap { f\(fn)($0); return \(promise(inner)) }"
    case .flatMap(let input, let fn, let inner, .then):
      "\(promise(input)).then { f\(fn)($0); return \(promise(inner)) }"
    case .mapError(let input, let fn): "\(promise(input)).mapError(f\(fn))"
    case .recover(let input, let fn): "\(promise(input)).recover(f\(fn)).setFailureType(to: E.self)"
    case .flatMapError(let input, let fn, let inner):
      "\(promise(input)).flatMapError { f\(fn)($0); return \(promise(inner)) }"
    case .retry(let input, let retries, let fn, nil): "\(promise(input)).retry(\(retries), if: f\(fn))"
    case .retry(let input, let retries, let fn, let backoff?):
      "\(promise(input)).retry(\(retries), backoff: .constant(.milliseconds(\(backoff))), on: scheduler, if: f\(fn))"
    case .timeout(let input, let ticks, let code):
      "\(promise(input)).timeout(.milliseconds(\(ticks)), on: scheduler, error: E(\(code)))"
    case .delay(let input, let ticks): "\(promise(input)).delay(.milliseconds(\(ticks)), on: scheduler)"
    case .receive(let input): "\(promise(input)).receive(on: scheduler)"
    case .subscribe(let input): "\(promise(input)).subscribe(on: scheduler)"
    case .all(let inputs, nil): "Promise.all([\(list(inputs))])"
    case .all(let inputs, let limit?): "Promise.all([\(list(inputs))], maxConcurrent: \(limit))"
    case .allSettled(let inputs): "Promise.allSettled([\(list(inputs))])"
    case .zip(let inputs): "zip(\(list(inputs)))"
    case .race(let inputs, let array): array ? "Promise.race([\(list(inputs))])" : "Promise.race(\(list(inputs)))"
    case .any(let inputs): "Promise.any([\(list(inputs))])"
    case .first(let inputs, let fn): "Promise.first(of: [\(list(inputs))], where: f\(fn)).map { $0 ?? -1 }"
    case .reduce(let inputs, let fn): "Promise.reduce([\(list(inputs))], initial: \(fn), f\(fn))"
    case .shared(let index): "shared\(index)"
    case .future(let index): "future\(index).promise"
    case .startedFuture(let input, let ops):
      "Promise(value: 0).flatMap { _ in \(promise(input)).start()\(futureOps(ops)).promise }"
    }
  }

  private static func futureOps(_ ops: [FutureOp]) -> String {
    ops.map { op in
      switch op {
      case .map(let fn): ".map(f\(fn))"
      case .flatMap(let fn): ".flatMap { Future(value: f\(fn)($0)) }"
      case .mapError(let fn): ".mapError(f\(fn))"
      case .flatMapError(let fn): ".flatMapError { Future(result: f\(fn)($0.code)) }"
      case .recover(let fn): ".recover(f\(fn)).setFailureType(to: E.self)"
      case .always(let fn): ".always { _ in f\(fn)() }"
      case .fold(let fn): ".fold([1, 2]) { Future(result: f\(fn)($0 &+ $1)) }"
      }
    }.joined()
  }

  // MARK: - The literal

  static func literal(_ program: Program) -> String {
    var fields = ["seed: \(program.seed)"]
    if !program.shares.isEmpty { fields.append("shares: [\(program.shares.map(literal).joined(separator: ", "))]") }
    if !program.futures.isEmpty {
      let futures = program.futures.map { definition in
        let branches = definition.branches.map { branch in
          switch branch {
          case .observe(let fn): ".observe(\(fn))"
          case .op(let op): ".op(\(ops([op]).dropFirst().dropLast()))"
          }
        }
        return "FutureDefinition(node: \(literal(definition.node)), ops: \(ops(definition.ops)), branches: ["
          + branches.joined(separator: ", ") + "])"
      }
      fields.append("futures: [\(futures.joined(separator: ", "))]")
    }
    fields.append("root: \(literal(program.root))")
    fields.append("cancelAt: \(program.cancelAt.map(String.init) ?? "nil")")
    fields.append("depthKiB: \(program.depthKiB.map(String.init) ?? "nil")")
    return "Program(\(fields.joined(separator: ", ")))"
  }

  private static func literal(_ result: SimResult) -> String {
    switch result {
    case .success(let value): ".success(\(value))"
    case .failure(let error): ".failure(SimError(code: \(error.code)))"
    }
  }

  private static func ops(_ ops: [FutureOp]) -> String {
    let each = ops.map { op in
      switch op {
      case .map(let fn): ".map(\(fn))"
      case .flatMap(let fn): ".flatMap(\(fn))"
      case .mapError(let fn): ".mapError(\(fn))"
      case .flatMapError(let fn): ".flatMapError(\(fn))"
      case .recover(let fn): ".recover(\(fn))"
      case .always(let fn): ".always(\(fn))"
      case .fold(let fn): ".fold(\(fn))"
      }
    }
    return "[" + each.joined(separator: ", ") + "]"
  }

  private static func literals(_ nodes: [Node]) -> String { "[" + nodes.map(literal).joined(separator: ", ") + "]" }

  private static func optional(_ value: Int?) -> String { value.map(String.init) ?? "nil" }

  static func literal(_ node: Node) -> String {
    switch node {
    case .value(let value): return ".value(\(value))"
    case .error(let code): return ".error(\(code))"
    case .task(let leaf):
      let behavior =
        switch leaf.behavior {
        case .sync(let r): ".sync(\(literal(r)))"
        case .later(let ticks, let r): ".later(\(ticks), \(literal(r)))"
        case .never: ".never"
        case .neverAdvancing(let ticks): ".neverAdvancing(\(ticks))"
        case .drop: ".drop"
        case .twice(let first, let ticks, let second): ".twice(\(literal(first)), \(ticks), \(literal(second)))"
        }
      return ".task(Leaf(id: \(leaf.id), behavior: \(behavior), cancelHandler: \(leaf.cancelHandler)))"
    case .catching(let id, let r): return ".catching(id: \(id), \(literal(r)))"
    case .map(let input, let fn, let spelling): return ".map(\(literal(input)), fn: \(fn), .\(spelling))"
    case .thenResult(let input, let fn): return ".thenResult(\(literal(input)), fn: \(fn))"
    case .flatMap(let input, let fn, let inner, let spelling):
      return ".flatMap(\(literal(input)), fn: \(fn), inner: \(literal(inner)), .\(spelling))"
    case .mapError(let input, let fn): return ".mapError(\(literal(input)), fn: \(fn))"
    case .recover(let input, let fn): return ".recover(\(literal(input)), fn: \(fn))"
    case .flatMapError(let input, let fn, let inner):
      return ".flatMapError(\(literal(input)), fn: \(fn), inner: \(literal(inner)))"
    case .retry(let input, let retries, let fn, let backoff):
      return ".retry(\(literal(input)), retries: \(retries), fn: \(fn), backoff: \(optional(backoff)))"
    case .timeout(let input, let ticks, let code):
      return ".timeout(\(literal(input)), ticks: \(ticks), code: \(code))"
    case .delay(let input, let ticks): return ".delay(\(literal(input)), ticks: \(ticks))"
    case .receive(let input): return ".receive(\(literal(input)))"
    case .subscribe(let input): return ".subscribe(\(literal(input)))"
    case .all(let inputs, let limit): return ".all(\(literals(inputs)), maxConcurrent: \(optional(limit)))"
    case .allSettled(let inputs): return ".allSettled(\(literals(inputs)))"
    case .zip(let inputs): return ".zip(\(literals(inputs)))"
    case .race(let inputs, let array): return ".race(\(literals(inputs)), array: \(array))"
    case .any(let inputs): return ".any(\(literals(inputs)))"
    case .first(let inputs, let fn): return ".first(\(literals(inputs)), fn: \(fn))"
    case .reduce(let inputs, let fn): return ".reduce(\(literals(inputs)), fn: \(fn))"
    case .shared(let index): return ".shared(\(index))"
    case .future(let index): return ".future(\(index))"
    case .startedFuture(let input, let ops): return ".startedFuture(\(literal(input)), \(self.ops(ops)))"
    }
  }
}
