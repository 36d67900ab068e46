import LazyPromise

/// The counts a program's closures record as the engine runs them; one thread drives a program, so a plain class.
final class Tally: @unchecked Sendable {
  var observation: Observation

  init(leaves: Int, fns: Int) { observation = Observation(leaves: leaves, fns: fns) }

  func call(_ fn: Int) { observation.calls[fn] += 1 }

  /// Records that the closure `fn` of a branch of the program's `future`th future was called.
  func called(_ fn: Int, branchOf future: Int) { observation.branchOrder[future, default: []].append(fn) }
}

/// An object every closure of a program captures; a weak reference to each tells what is still alive afterwards.
final class Probe: Sendable {}

/// The completion handlers `never` tasks keep, let go of at the end of the program (as `ManualTask.forget()`).
final class Keeper: @unchecked Sendable {
  private var kept: [Int: Promise<Int, SimError>.Completion] = [:]
  private var next = 0
  /// How many `neverAdvancing` tasks are moving the clock from inside their start: timers due then fire inside
  /// promise work, where the stack is already as deep as it is, not `atDepth` from the top.
  var advancing = 0

  func keep(_ completion: @escaping Promise<Int, SimError>.Completion) -> Int {
    next += 1
    kept[next] = completion
    return next
  }

  func release(_ key: Int) { kept[key] = nil }

  func releaseAll() { kept.removeAll() }
}

private final class Weak: @unchecked Sendable {
  weak var object: Probe?
  init(_ object: Probe) { self.object = object }
}

/// Builds a program's promises over the engine's public API, with a virtual scheduler for time.
private struct Builder {
  let scheduler: VirtualScheduler
  let tally: Tally
  let keeper: Keeper
  let depthKiB: Int?
  var probes: [Weak] = []
  var shares: [Promise<Int, SimError>] = []
  var futures: [Future<Int, SimError>] = []

  mutating func probe() -> Probe {
    let probe = Probe()
    probes.append(Weak(probe))
    return probe
  }

  mutating func build(_ node: Node) -> Promise<Int, SimError> {
    let tally = self.tally
    let probe = probe()
    switch node {
    case .value(let value): return Promise(value: value)
    case .error(let code): return Promise(error: SimError(code: code))
    case .task(let leaf): return task(leaf, probe: probe)
    case .catching(let id, let result):
      return Promise.catching { () throws(SimError) -> Int in
        _ = probe
        tally.observation.starts[id] += 1
        return try result.get()
      }
    case .map(let input, let fn, .named):
      return build(input).map { value in
        _ = probe
        tally.call(fn)
        return SimFunctions.map(fn, value)
      }
    case .map(let input, let fn, .then):
      return build(input).then { (value: Int) -> Int in
        _ = probe
        tally.call(fn)
        return SimFunctions.map(fn, value)
      }
    case .thenResult(let input, let fn):
      return build(input).then { (value: Int) -> Result<Int, SimError> in
        _ = probe
        tally.call(fn)
        return SimFunctions.thenResult(fn, value)
      }
    case .flatMap(let input, let fn, let inner, let spelling):
      let inner = build(inner)
      let outer = build(input)
      let transform: @Sendable (Int) -> Promise<Int, SimError> = { _ in
        _ = probe
        tally.call(fn)
        return inner
      }
      return spelling == .named ? outer.flatMap(transform) : outer.then { (value: Int) in transform(value) }
    case .mapError(let input, let fn):
      return build(input).mapError { error in
        _ = probe
        tally.call(fn)
        return SimFunctions.mapError(fn, error)
      }
    case .recover(let input, let fn):
      return build(input).recover { error in
        _ = probe
        tally.call(fn)
        return SimFunctions.recover(fn, error)
      }.setFailureType(to: SimError.self)
    case .flatMapError(let input, let fn, let inner):
      let inner = build(inner)
      return build(input).flatMapError { _ in
        _ = probe
        tally.call(fn)
        return inner
      }
    case .retry(let input, let retries, let fn, let backoff):
      let shouldRetry: @Sendable (SimError) -> Bool = { error in
        _ = probe
        tally.call(fn)
        return SimFunctions.shouldRetry(fn, error)
      }
      guard let backoff else { return build(input).retry(retries, if: shouldRetry) }
      return build(input).retry(
        retries, backoff: .constant(.milliseconds(backoff)), on: scheduler, if: shouldRetry)
    case .timeout(let input, let ticks, let code):
      return build(input).timeout(.milliseconds(ticks), on: scheduler, error: SimError(code: code))
    case .delay(let input, let ticks):
      return build(input).delay(.milliseconds(ticks), on: scheduler)
    case .receive(let input):
      return build(input).receive(on: scheduler)
    case .subscribe(let input):
      return build(input).subscribe(on: scheduler)
    case .all(let inputs, let limit):
      return Promise.all(inputs.map { build($0) }, maxConcurrent: limit).map { SimFunctions.hash($0) }
    case .allSettled(let inputs):
      return Promise.allSettled(inputs.map { build($0) }).map { SimFunctions.hash(settled: $0) }
        .setFailureType(to: SimError.self)
    case .zip(let inputs):
      let promises = inputs.map { build($0) }
      if promises.count == 2 {
        return zip(promises[0], promises[1]).map { (pair: (Int, Int)) in SimFunctions.hash([pair.0, pair.1]) }
      }
      return zip(promises[0], promises[1], promises[2]).map { (triple: (Int, Int, Int)) in
        SimFunctions.hash([triple.0, triple.1, triple.2])
      }
    case .race(let inputs, let array):
      let promises = inputs.map { build($0) }
      if array { return Promise.race(promises).map { $0 ?? -1 } }
      switch promises.count {
      case 1: return Promise.race(promises[0])
      case 2: return Promise.race(promises[0], promises[1])
      default: return Promise.race(promises[0], promises[1], promises[2])
      }
    case .any(let inputs):
      return Promise.any(inputs.map { build($0) }).mapError { SimFunctions.allFailed($0.errors) }
    case .first(let inputs, let fn):
      return Promise.first(of: inputs.map { build($0) }) { value in
        _ = probe
        tally.call(fn)
        return SimFunctions.accepts(fn, value)
      }.map { $0 ?? -1 }
    case .reduce(let inputs, let fn):
      return Promise.reduce(inputs.map { build($0) }, initial: fn) { accumulated, value in
        _ = probe
        tally.call(fn)
        return SimFunctions.combine(fn, accumulated, value)
      }
    case .shared(let index): return shares[index]
    case .future(let index): return futures[index].promise
    case .startedFuture(let input, let ops):
      let input = build(input)
      let chain = futureChain(ops)
      return Promise(value: 0).flatMap { _ in
        _ = probe
        return chain(input.start()).promise
      }
    }
  }

  /// The stages `ops` chained on a future, each counting its closure's calls.
  mutating func futureChain(
    _ ops: [FutureOp], branchOf future: Int? = nil
  ) -> @Sendable (Future<Int, SimError>) -> Future<Int, SimError> {
    let tally = BranchTally(tally: self.tally, future: future)
    var chain: @Sendable (Future<Int, SimError>) -> Future<Int, SimError> = { $0 }
    for op in ops {
      let probe = probe()
      let before = chain
      switch op {
      case .map(let fn):
        chain = { future in
          before(future).map { value in
            _ = probe
            tally.call(fn)
            return SimFunctions.map(fn, value)
          }
        }
      case .flatMap(let fn):
        chain = { future in
          before(future).flatMap { value in
            _ = probe
            tally.call(fn)
            return Future(value: SimFunctions.map(fn, value))
          }
        }
      case .mapError(let fn):
        chain = { future in
          before(future).mapError { error in
            _ = probe
            tally.call(fn)
            return SimFunctions.mapError(fn, error)
          }
        }
      case .flatMapError(let fn):
        chain = { future in
          before(future).flatMapError { error in
            _ = probe
            tally.call(fn)
            return Future(result: SimFunctions.thenResult(fn, error.code))
          }
        }
      case .recover(let fn):
        chain = { future in
          before(future).recover { error in
            _ = probe
            tally.call(fn)
            return SimFunctions.recover(fn, error)
          }.setFailureType(to: SimError.self)
        }
      case .always(let fn):
        chain = { future in
          before(future).always { _ in
            _ = probe
            tally.call(fn)
          }
        }
      case .fold(let fn):
        chain = { future in
          before(future).fold(SimFunctions.foldElements) { partial, element in
            _ = probe
            tally.call(fn)
            return Future(result: SimFunctions.thenResult(fn, partial &+ element))
          }
        }
      }
    }
    return chain
  }

  func task(_ leaf: Leaf, probe: Probe) -> Promise<Int, SimError> {
    let tally = self.tally
    let keeper = self.keeper
    let scheduler = self.scheduler
    let depthKiB = self.depthKiB
    return Promise { completion, onCancel in
      _ = probe
      tally.observation.starts[leaf.id] += 1
      switch leaf.behavior {
      case .sync(let result):
        if leaf.cancelHandler { onCancel { tally.observation.cancels[leaf.id] += 1 } }
        completion(result)
      case .later(let ticks, let result):
        let work = scheduler.enqueue(after: .milliseconds(ticks)) {
          if keeper.advancing > 0 { return completion(result) }
          atDepth(depthKiB) { completion(result) }
        }
        if leaf.cancelHandler {
          onCancel {
            tally.observation.cancels[leaf.id] += 1
            work.cancel()
          }
        }
      case .never, .neverAdvancing:
        let key = keeper.keep(completion)
        if leaf.cancelHandler {
          onCancel {
            tally.observation.cancels[leaf.id] += 1
            keeper.release(key)
          }
        }
        if case .neverAdvancing(let ticks) = leaf.behavior {
          keeper.advancing += 1
          scheduler.advance(by: .milliseconds(ticks))
          keeper.advancing -= 1
        }
      case .drop:
        if leaf.cancelHandler { onCancel { tally.observation.cancels[leaf.id] += 1 } }
      case .twice(let first, let ticks, let second):
        if leaf.cancelHandler { onCancel { tally.observation.cancels[leaf.id] += 1 } }
        completion(first)
        _ = scheduler.enqueue(after: .milliseconds(ticks)) {
          if keeper.advancing > 0 { return completion(second) }
          atDepth(depthKiB) { completion(second) }
        }
      }
    }
  }
}

/// What the engine did with a program, and what was still alive after it.
struct EngineReport {
  var observation: Observation
  var cancelledHandle: Bool
  /// Objects the program's closures captured that are alive after the run, its handle, the program and the kept
  /// completion handlers are gone.
  var alive: Int
  var pendingAfterDrain: Int
}

/// Runs `body` inside another run's handler after recursing about `kib` KiB of stack, so the trampoline's budget is
/// measured from that outer run; `nil`: at once, at the top.
func atDepth(_ kib: Int?, _ body: () -> Void) {
  guard let kib else { return body() }
  withoutActuallyEscaping(body) { body in
    nonisolated(unsafe) let body = body
    // An observer of a completed future runs inside a trampoline step (clause 19.3), which measures the stack from
    // here: the program then starts `kib` deeper inside that step.
    Future<Void, Never>(value: ()).observe { _ in recurse(bytes: kib * 1024, body) }
  }
}

func stackAddress() -> UInt {
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { UInt(bitPattern: $0.baseAddress) }
}

@inline(never)
private func recurse(bytes: Int, _ body: () -> Void) {
  guard bytes > 0 else { return body() }
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 960) { buffer in
    buffer.initialize(repeating: UInt8(truncatingIfNeeded: bytes))
    recurse(bytes: bytes - 1024, body)
    blackHole(buffer[Int(buffer[0]) % 960])
  }
}

@inline(never)
private func blackHole(_ value: UInt8) {
  if value == 255 && Int.random(in: 0..<1) == 1 { print(value) }
}

enum EngineRunner {
  static func run(_ program: Program) -> EngineReport {
    let bounds = program.idBounds
    let scheduler = VirtualScheduler()
    let tally = Tally(leaves: bounds.leaves, fns: bounds.fns)
    let keeper = Keeper()
    var probes: [Weak] = []
    var cancelled = false
    var observation = tally.observation
    do {
      var builder = Builder(scheduler: scheduler, tally: tally, keeper: keeper, depthKiB: program.depthKiB)
      var handle: RunHandle?
      atDepth(program.depthKiB) {
        for share in program.shares { builder.shares.append(builder.build(share).shared()) }
        for (index, definition) in program.futures.enumerated() {
          let chain = builder.futureChain(definition.ops)
          let future = chain(builder.build(definition.node).start())
          builder.futures.append(future)
          for branch in definition.branches {
            switch branch {
            case .observe(let fn):
              future.observe { _ in
                tally.call(fn)
                tally.called(fn, branchOf: index)
              }
            case .op(let op):
              _ = builder.futureChain([op], branchOf: index)(future)
            }
          }
        }
        let root = builder.build(program.root)
        handle = root.run { result in
          tally.observation.deliveries.append((result, Int(scheduler.now / .milliseconds(1))))
        }
      }
      if let cancelAt = program.cancelAt, let handle {
        _ = scheduler.enqueue(after: .milliseconds(cancelAt)) { handle.cancel() }
      }
      scheduler.run()
      cancelled = handle?.isCancelled ?? false
      probes = builder.probes
      tally.observation.finalTime = Int(scheduler.now / .milliseconds(1))
      observation = tally.observation
      // A run still pending is cancelled now, after what it did was recorded: a cancelled run lets go of what it
      // holds (6.7), so everything must be freed once the handlers tasks kept are gone too.
      handle?.cancel()
    }
    keeper.releaseAll()
    return EngineReport(
      observation: observation, cancelledHandle: cancelled,
      alive: probes.count { $0.object != nil }, pendingAfterDrain: scheduler.pendingCount)
  }
}

/// The tally as a future's stages see it: a branch's closure also records its place in the branch order.
struct BranchTally: Sendable {
  let tally: Tally
  let future: Int?

  func call(_ fn: Int) {
    tally.call(fn)
    if let future { tally.called(fn, branchOf: future) }
  }
}
