import LazyPromise

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs programs on the engine and on the model and compares them; shrinks a program that differs.
enum Simulation {
  /// Whether to check what a run that is still pending keeps alive (`LAZYPROMISE_SIM_STRICT_LEAKS=1`): clause 6.7
  /// lets a pending run whose task drops its completion handler uncalled stay alive.
  nonisolated(unsafe) static var strictLeaks = false

  /// What a program's run must satisfy besides matching the model's observation.
  static func mismatch(in program: Program, mutation: ModelMutation = .none) -> String? {
    let report = EngineRunner.run(program)
    return mismatch(program, report, Model.observe(program, mutation: mutation))
  }

  static func mismatch(_ program: Program, _ report: EngineReport, _ model: Observation) -> String? {
    var problems: [String] = []
    let engine = report.observation
    if engine.deliveries.count > 1 { problems.append("the run delivered \(engine.deliveries.count) times (4.1)") }
    if engine.deliveries.map(\.0) != model.deliveries.map(\.0) {
      problems.append("outcome: engine \(describe(engine.deliveries)), model \(describe(model.deliveries))")
    } else if engine.deliveries.map(\.1) != model.deliveries.map(\.1) {
      problems.append("delivery time: engine \(describe(engine.deliveries)), model \(describe(model.deliveries))")
    }
    compare("task starts", engine.starts, model.starts, into: &problems)
    compare("cancel handler calls", engine.cancels, model.cancels, into: &problems)
    compare("closure calls", engine.calls, model.calls, into: &problems)
    if engine.branchOrder != model.branchOrder {
      problems.append(
        "a future's branches were called in the order \(engine.branchOrder), the model's \(model.branchOrder)")
    }
    if engine.finalTime != model.finalTime {
      problems.append("the scheduler's last work ran at \(engine.finalTime) ms, the model's at \(model.finalTime) ms")
    }
    if report.pendingAfterDrain != 0 { problems.append("\(report.pendingAfterDrain) scheduled works left") }
    if report.alive != 0, !model.pendingAtEnd || strictLeaks {
      problems.append("\(report.alive) captured objects alive after the run (leak)")
    }
    return problems.isEmpty ? nil : problems.joined(separator: "\n")
  }

  private static func describe(_ deliveries: [(SimResult, Int)]) -> String {
    if deliveries.isEmpty { return "nothing delivered" }
    return deliveries.map { "\($0.0) at \($0.1) ms" }.joined(separator: ", ")
  }

  private static func compare(_ what: String, _ engine: [Int], _ model: [Int], into problems: inout [String]) {
    guard engine != model else { return }
    let differences = zip(engine.indices, zip(engine, model)).filter { $0.1.0 != $0.1.1 }
      .map { "#\($0.0): engine \($0.1.0), model \($0.1.1)" }
    problems.append("\(what): " + differences.joined(separator: "; "))
  }

  // MARK: - Shrinking

  /// The smallest program found, by greedy steps, that still differs from the model.
  static func shrink(_ program: Program, budget: Int = 3000, mutation: ModelMutation = .none) -> Program {
    var best = program
    var tries = 0
    var improved = true
    while improved, tries < budget {
      improved = false
      for candidate in candidates(best) where tries < budget {
        tries += 1
        if mismatch(in: candidate, mutation: mutation) != nil {
          best = candidate
          improved = true
          break
        }
      }
    }
    return best
  }

  private static func candidates(_ program: Program) -> [Program] {
    var result: [Program] = []
    let compacted = program.compacted()
    if compacted != program { result.append(compacted) }
    if program.cancelAt != nil { result.append(program.with { $0.cancelAt = nil }) }
    if let cancelAt = program.cancelAt, cancelAt > 0 { result.append(program.with { $0.cancelAt = cancelAt / 2 }) }
    if program.depthKiB != nil { result.append(program.with { $0.depthKiB = nil }) }
    for root in candidates(program.root) { result.append(program.with { $0.root = root }) }
    for index in program.shares.indices {
      for share in candidates(program.shares[index]) { result.append(program.with { $0.shares[index] = share }) }
    }
    for index in program.futures.indices {
      let definition = program.futures[index]
      for node in candidates(definition.node) { result.append(program.with { $0.futures[index].node = node }) }
      for op in definition.ops.indices { result.append(program.with { $0.futures[index].ops.remove(at: op) }) }
      for branch in definition.branches.indices {
        result.append(program.with { $0.futures[index].branches.remove(at: branch) })
      }
    }
    if let kib = program.depthKiB, kib > 0 { result.append(program.with { $0.depthKiB = kib * 3 / 4 }) }
    return result
  }

  /// Smaller nodes to try in place of `node`: simpler first.
  static func candidates(_ node: Node) -> [Node] {
    var result: [Node] = []
    let children = node.children
    switch node {
    case .value(let value): if value != 0 { result.append(.value(0)) }
    case .error(let code): if code != 1 { result.append(.error(1)) }
    case .task(let leaf):
      result.append(.value(0))
      result.append(.error(1))
      if case .later(let ticks, let r) = leaf.behavior {
        result.append(.task(Leaf(id: leaf.id, behavior: .sync(r), cancelHandler: leaf.cancelHandler)))
        if ticks > 0 {
          result.append(.task(Leaf(id: leaf.id, behavior: .later(ticks / 2, r), cancelHandler: leaf.cancelHandler)))
        }
      }
      if case .neverAdvancing(let ticks) = leaf.behavior {
        result.append(.task(Leaf(id: leaf.id, behavior: .never, cancelHandler: leaf.cancelHandler)))
        if ticks > 0 {
          result.append(
            .task(Leaf(id: leaf.id, behavior: .neverAdvancing(ticks / 2), cancelHandler: leaf.cancelHandler)))
        }
      }
      if case .twice(let first, let ticks, let second) = leaf.behavior {
        result.append(.task(Leaf(id: leaf.id, behavior: .sync(first), cancelHandler: leaf.cancelHandler)))
        if ticks > 0 {
          result.append(
            .task(Leaf(id: leaf.id, behavior: .twice(first, ticks / 2, second), cancelHandler: leaf.cancelHandler)))
        }
      }
      if leaf.behavior == .drop {
        result.append(.task(Leaf(id: leaf.id, behavior: .never, cancelHandler: leaf.cancelHandler)))
      }
      if leaf.cancelHandler { result.append(.task(Leaf(id: leaf.id, behavior: leaf.behavior, cancelHandler: false))) }
    case .catching: result.append(contentsOf: [.value(0), .error(1)])
    default: result.append(contentsOf: [.value(0), .error(1)])
    }
    result.append(contentsOf: children)
    switch node {
    case .all(let inputs, let limit):
      for index in inputs.indices { result.append(.all(removing(index, from: inputs), maxConcurrent: limit)) }
      if limit != nil { result.append(.all(inputs, maxConcurrent: nil)) }
    case .allSettled(let inputs):
      for index in inputs.indices { result.append(.allSettled(removing(index, from: inputs))) }
    case .zip(let inputs) where inputs.count > 2:
      for index in inputs.indices { result.append(.zip(removing(index, from: inputs))) }
    case .race(let inputs, let array) where array || inputs.count > 1:
      for index in inputs.indices { result.append(.race(removing(index, from: inputs), array: array)) }
    case .any(let inputs):
      for index in inputs.indices { result.append(.any(removing(index, from: inputs))) }
    case .first(let inputs, let fn):
      for index in inputs.indices { result.append(.first(removing(index, from: inputs), fn: fn)) }
    case .reduce(let inputs, let fn):
      for index in inputs.indices { result.append(.reduce(removing(index, from: inputs), fn: fn)) }
    case .retry(let input, let retries, let fn, let backoff):
      if retries > 0 { result.append(.retry(input, retries: retries - 1, fn: fn, backoff: backoff)) }
      if backoff != nil { result.append(.retry(input, retries: retries, fn: fn, backoff: nil)) }
    case .timeout(let input, let ticks, let code) where ticks > 1:
      result.append(.timeout(input, ticks: ticks / 2, code: code))
    case .delay(let input, let ticks) where ticks > 0: result.append(.delay(input, ticks: 0))
    case .startedFuture(let input, let ops) where !ops.isEmpty:
      for index in ops.indices { result.append(.startedFuture(input, removing(index, from: ops))) }
    case .map(let input, let fn, .then): result.append(.map(input, fn: fn, .named))
    case .flatMap(let input, let fn, let inner, .then): result.append(.flatMap(input, fn: fn, inner: inner, .named))
    default: break
    }
    for (index, child) in children.enumerated() {
      for smaller in candidates(child) {
        var replaced = children
        replaced[index] = smaller
        result.append(node.replacingChildren(replaced))
      }
    }
    return result
  }

  private static func removing<T>(_ index: Int, from list: [T]) -> [T] {
    var list = list
    list.remove(at: index)
    return list
  }

  // MARK: - Reporting a crash

  /// The seed running now, printed if the engine traps (a trap cannot be caught or shrunk in this process).
  nonisolated(unsafe) static var currentSeed: UInt64 = 0

  static func installCrashReporter() {
    for fatal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT] {
      _ = signal(fatal) { number in
        var message = Array("\nLazyPromise simulation: the engine crashed on seed ".utf8)
        var digits: [UInt8] = []
        var seed = Simulation.currentSeed
        repeat {
          digits.append(UInt8(ascii: "0") + UInt8(seed % 10))
          seed /= 10
        } while seed > 0
        message += digits.reversed()
        message += Array(": replay it with LAZYPROMISE_SIM_SEED=<seed> to print the program\n".utf8)
        _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _ = signal(number, SIG_DFL)
        raise(number)
      }
    }
  }
}

extension Program {
  func with(_ change: (inout Program) -> Void) -> Program {
    var copy = self
    change(&copy)
    return copy
  }

  /// The same program without the definitions nothing refers to.
  func compacted() -> Program {
    var usedShares = Set<Int>()
    var usedFutures = Set<Int>()
    root.forEach { node in
      if case .shared(let index) = node { usedShares.insert(index) }
      if case .future(let index) = node { usedFutures.insert(index) }
    }
    let shareMap = Dictionary(uniqueKeysWithValues: usedShares.sorted().enumerated().map { ($1, $0) })
    let futureMap = Dictionary(uniqueKeysWithValues: usedFutures.sorted().enumerated().map { ($1, $0) })
    var copy = self
    copy.shares = usedShares.sorted().map { shares[$0] }
    copy.futures = usedFutures.sorted().map { futures[$0] }
    copy.root = root.renumbering(shares: shareMap, futures: futureMap)
    return copy
  }
}

extension Node {
  func replacingChildren(_ new: [Node]) -> Node {
    switch self {
    case .value, .error, .task, .catching, .shared, .future: self
    case .map(_, let fn, let spelling): .map(new[0], fn: fn, spelling)
    case .thenResult(_, let fn): .thenResult(new[0], fn: fn)
    case .flatMap(_, let fn, _, let spelling): .flatMap(new[0], fn: fn, inner: new[1], spelling)
    case .mapError(_, let fn): .mapError(new[0], fn: fn)
    case .recover(_, let fn): .recover(new[0], fn: fn)
    case .flatMapError(_, let fn, _): .flatMapError(new[0], fn: fn, inner: new[1])
    case .retry(_, let retries, let fn, let backoff): .retry(new[0], retries: retries, fn: fn, backoff: backoff)
    case .timeout(_, let ticks, let code): .timeout(new[0], ticks: ticks, code: code)
    case .delay(_, let ticks): .delay(new[0], ticks: ticks)
    case .receive: .receive(new[0])
    case .subscribe: .subscribe(new[0])
    case .all(_, let limit): .all(new, maxConcurrent: limit)
    case .allSettled: .allSettled(new)
    case .zip: .zip(new)
    case .race(_, let array): .race(new, array: array)
    case .any: .any(new)
    case .first(_, let fn): .first(new, fn: fn)
    case .reduce(_, let fn): .reduce(new, fn: fn)
    case .startedFuture(_, let ops): .startedFuture(new[0], ops)
    }
  }

  func renumbering(shares: [Int: Int], futures: [Int: Int]) -> Node {
    switch self {
    case .shared(let index): .shared(shares[index]!)
    case .future(let index): .future(futures[index]!)
    default: replacingChildren(children.map { $0.renumbering(shares: shares, futures: futures) })
    }
  }
}
