/// The reference model: the contract written as a plain interpreter over a program, with no engine, no locks and no
/// stack safety. It runs on its own virtual clock, with the scheduler's rule (clause 8.7: due time, ties in
/// scheduling order), and counts what the contract says happens: each task's starts, each cancel handler's calls,
/// each closure's calls, the run's one delivery and its virtual time.

/// What a run did: the engine's report and the model's have this shape.
struct Observation: Equatable {
  /// The run's deliveries: (result, virtual milliseconds).
  var deliveries: [(SimResult, Int)] = []
  var starts: [Int]
  var cancels: [Int]
  var calls: [Int]
  /// For each of the program's futures, the closures of its branches, in the order they were called.
  var branchOrder: [Int: [Int]] = [:]
  /// The virtual time when the scheduler ran out of work.
  var finalTime = 0
  /// The model only: a future's work was still pending when the scheduler ran out of work. Clause 6.7 lets such a run stay alive once its task lets go of
  /// its completion handler uncalled, so what it captured is not checked then.
  var pendingAtEnd = false

  init(leaves: Int, fns: Int) {
    starts = Array(repeating: 0, count: leaves)
    cancels = Array(repeating: 0, count: leaves)
    calls = Array(repeating: 0, count: fns)
  }

  static func == (lhs: Observation, rhs: Observation) -> Bool {
    lhs.deliveries.map(\.0) == rhs.deliveries.map(\.0) && lhs.deliveries.map(\.1) == rhs.deliveries.map(\.1)
      && lhs.starts == rhs.starts && lhs.cancels == rhs.cancels && lhs.calls == rhs.calls
      && lhs.branchOrder == rhs.branchOrder
      && lhs.finalTime == rhs.finalTime
  }
}

/// Deliberate faults in the model, to show that the check finds a model that disagrees with the contract.
enum ModelMutation: String, CaseIterable, Sendable {
  case none
  /// `retry(n)` tries once more than it should.
  case retryOneTooMany
  /// `all(maxConcurrent: m)` runs `m + 1` inputs at once.
  case maxConcurrentPlusOne
  /// A future's `always` is not called on a failure.
  case futureAlwaysOnSuccessOnly
  /// A future's branches are called in the reverse of the order they were registered in.
  case futureBranchesReversed
  /// A task's second call of its completion handler is delivered too.
  case secondCallDelivered

  /// The operator family (`LAZYPROMISE_SIM_EXCLUDE`) whose programs can tell this model apart.
  var family: String {
    switch self {
    case .none: ""
    case .retryOneTooMany: "retry"
    case .maxConcurrentPlusOne: "combinators"
    case .futureAlwaysOnSuccessOnly, .futureBranchesReversed: "future"
    case .secondCallDelivered: "twice"
    }
  }
}

/// A run (or part of one) that can be cancelled: clause 7. Cancelling runs its hooks once; a finished run ignores it.
private final class Run {
  private(set) var cancelled = false
  private(set) var finished = false
  private var hooks: [() -> Void] = []

  func onCancel(_ hook: @escaping () -> Void) {
    if cancelled { hook() } else if !finished { hooks.append(hook) }
  }

  func cancel() {
    guard !cancelled, !finished else { return }
    cancelled = true
    let hooks = self.hooks
    self.hooks = []
    for hook in hooks { hook() }
  }

  /// The run has delivered: a later cancel does nothing (7.3).
  func finish() {
    finished = true
    hooks = []
  }
}

private final class Event {
  let time: Int
  let sequence: Int
  var action: (() -> Void)?

  init(time: Int, sequence: Int, action: @escaping () -> Void) {
    self.time = time
    self.sequence = sequence
    self.action = action
  }
}

/// A future's state in the model: its result once known, and the views waiting for it.
private final class FutureState {
  var result: SimResult?
  var waiters: [(Run, (SimResult) -> Void)] = []
}

/// A `shared()` promise's state: idle, running (with its runs waiting), or done with its result (20.3, 20.5).
private final class SharedState {
  var result: SimResult?
  var work: Run?
  var waiters: [(Run, (SimResult) -> Void)] = []
}

final class Model {
  private let program: Program
  private let mutation: ModelMutation
  private var observation: Observation
  private var now = 0
  private var sequence = 0
  private var events: [Event] = []
  private var shares: [SharedState]
  private var futures: [FutureState] = []
  /// Every future started, those of the program's definitions and those started on each run.
  private var startedFutures: [FutureState] = []

  static func observe(_ program: Program, mutation: ModelMutation = .none) -> Observation {
    Model(program, mutation: mutation).run()
  }

  private init(_ program: Program, mutation: ModelMutation) {
    self.program = program
    self.mutation = mutation
    let bounds = program.idBounds
    observation = Observation(leaves: bounds.leaves, fns: bounds.fns)
    shares = program.shares.map { _ in SharedState() }
  }

  private func run() -> Observation {
    // The futures start when the program is built, in order, before the run (20.1).
    for (index, definition) in program.futures.enumerated() {
      futures.append(startFuture(definition.node, ops: definition.ops, branches: definition.branches, index: index))
    }
    let root = Run()
    start(program.root, root) { [self] result in
      root.finish()
      observation.deliveries.append((result, now))
    }
    if let cancelAt = program.cancelAt {
      _ = schedule(after: cancelAt) { root.cancel() }
    }
    while let index = events.indices.min(by: {
      (events[$0].time, events[$0].sequence) < (events[$1].time, events[$1].sequence)
    }) {
      let event = events.remove(at: index)
      guard let action = event.action else { continue }  // cancelled: the clock does not move
      now = event.time
      action()
    }
    observation.finalTime = now
    // The harness cancels the program's run at the end, and with it the work of `shared()` promises (20.5); a
    // future's work cannot be cancelled (`SimError` cannot say "cancelled", 19.10).
    observation.pendingAtEnd = startedFutures.contains { $0.result == nil }
    return observation
  }

  /// `VirtualScheduler.advance(by:)`: runs the events due by `ticks` from now, in order, moving the clock to each,
  /// and then to that deadline.
  private func advance(by ticks: Int) {
    let deadline = now + max(ticks, 0)
    while let index = events.indices.min(by: {
      (events[$0].time, events[$0].sequence) < (events[$1].time, events[$1].sequence)
    }), events[index].time <= deadline {
      let event = events.remove(at: index)
      guard let action = event.action else { continue }
      now = max(now, event.time)
      action()
    }
    now = max(now, deadline)
  }

  private func schedule(after ticks: Int, _ action: @escaping () -> Void) -> Event {
    let event = Event(time: now + max(ticks, 0), sequence: sequence, action: action)
    sequence += 1
    events.append(event)
    return event
  }

  private func call(_ fn: Int) { observation.calls[fn] += 1 }

  // MARK: - Nodes

  private func start(_ node: Node, _ run: Run, _ done: @escaping (SimResult) -> Void) {
    // 7.1: nothing passes on once the run is cancelled.
    let deliver: (SimResult) -> Void = { result in if !run.cancelled { done(result) } }
    switch node {
    case .value(let value): deliver(.success(value))
    case .error(let code): deliver(.failure(SimError(code: code)))
    case .task(let leaf): startLeaf(leaf, run, deliver)
    case .catching(let id, let result):
      observation.starts[id] += 1
      deliver(result)
    case .map(let input, let fn, _):
      start(input, run) { [self] result in
        deliver(
          result.map { value in
            call(fn); return SimFunctions.map(fn, value)
          })
      }
    case .thenResult(let input, let fn):
      start(input, run) { [self] result in
        deliver(
          result.flatMap { value in
            call(fn); return SimFunctions.thenResult(fn, value)
          })
      }
    case .flatMap(let input, let fn, let inner, _):
      start(input, run) { [self] result in
        switch result {
        case .success:
          call(fn)
          join(inner, run, deliver)
        case .failure: deliver(result)
        }
      }
    case .mapError(let input, let fn):
      start(input, run) { [self] result in
        deliver(
          result.mapError { error in
            call(fn); return SimFunctions.mapError(fn, error)
          })
      }
    case .recover(let input, let fn):
      start(input, run) { [self] result in
        switch result {
        case .success: deliver(result)
        case .failure(let error):
          call(fn)
          deliver(.success(SimFunctions.recover(fn, error)))
        }
      }
    case .flatMapError(let input, let fn, let inner):
      start(input, run) { [self] result in
        switch result {
        case .success: deliver(result)
        case .failure:
          call(fn)
          join(inner, run, deliver)
        }
      }
    case .retry(let input, let retries, let fn, let backoff):
      startRetry(input, retries: retries, fn: fn, backoff: backoff, run, deliver)
    case .timeout(let input, let ticks, let code):
      // 8.2-8.4: the clock starts when the run reaches the stage, before the work starts.
      let work = Run()
      var decided = false
      let timer = schedule(after: ticks) {
        guard !decided else { return }
        decided = true
        work.cancel()
        deliver(.failure(SimError(code: code)))
      }
      run.onCancel {
        if !decided {
          decided = true
          timer.action = nil
        }
        work.cancel()
      }
      start(input, work) { result in
        work.finish()
        guard !decided else { return }
        decided = true
        timer.action = nil
        deliver(result)
      }
    case .delay(let input, let ticks):
      // 8.1: a value waits; a failure passes on at once.
      start(input, run) { [self] result in
        guard case .success = result else { return deliver(result) }
        let timer = schedule(after: ticks) { deliver(result) }
        run.onCancel { timer.action = nil }
      }
    case .receive(let input):
      // 2.5: each result waits for the scheduler (its zero-delay work, in order), then passes on.
      start(input, run) { [self] result in _ = schedule(after: 0) { deliver(result) } }
    case .subscribe(let input):
      // 2.6: the input starts from the scheduler; 7.4: not once the run is cancelled.
      _ = schedule(after: 0) { [self] in if !run.cancelled { start(input, run, deliver) } }
    case .all(let inputs, let limit):
      var bound = limit.map { max($0, 1) }
      if mutation == .maxConcurrentPlusOne, let b = bound { bound = b + 1 }
      gather(inputs, limit: bound, run, deliver, rule: .allSucceed) { results in
        .success(SimFunctions.hash(results.map { (try? $0.get()) ?? 0 }))
      }
    case .zip(let inputs):
      gather(inputs, limit: nil, run, deliver, rule: .allSucceed) { results in
        .success(SimFunctions.hash(results.map { (try? $0.get()) ?? 0 }))
      }
    case .allSettled(let inputs):
      gather(inputs, limit: nil, run, deliver, rule: .allSettle) { .success(SimFunctions.hash(settled: $0)) }
    case .race(let inputs, let array):
      if inputs.isEmpty {
        deliver(.success(-1))
      } else {
        gather(inputs, limit: nil, run, deliver, rule: .first) { _ in
          array ? .success(-1) : .failure(SimError(code: -1))  // unreachable: a race of one or more decides
        }
      }
    case .any(let inputs):
      gather(inputs, limit: nil, run, deliver, rule: .firstSuccess) { results in
        .failure(
          SimFunctions.allFailed(
            results.map { result in
              if case .failure(let error) = result { return error }
              return SimError(code: -1)
            }))
      }
    case .first(let inputs, let fn):
      // 15.2-15.4: the first accepted value decides; otherwise the first failure in input order, or nil (-1).
      gather(inputs, limit: nil, run, deliver, rule: .firstAccepted(fn)) { results in
        for case .failure(let error) in results { return .failure(error) }
        return .success(-1)
      }
    case .reduce(let inputs, let fn):
      startReduce(inputs, fn: fn, run, deliver)
    case .shared(let index): joinShared(index, run, deliver)
    case .future(let index): view(futures[index], run, deliver)
    case .startedFuture(let input, let ops):
      // `Promise(value: 0).flatMap { _ in input.start().ops.promise }`: a new future on each run; cancelling the
      // run stops only the view, never the future's work (20.1, 20.2).
      view(startFuture(input, ops: ops), run, deliver)
    }
  }

  /// A run-time join (`flatMap`, `flatMapError`): the inner promise runs as part of `run`.
  private func join(_ inner: Node, _ run: Run, _ deliver: @escaping (SimResult) -> Void) {
    start(inner, run, deliver)
  }

  private func startLeaf(_ leaf: Leaf, _ run: Run, _ deliver: @escaping (SimResult) -> Void) {
    observation.starts[leaf.id] += 1
    // 7.2: a handler runs once on cancel; 7.3: a completed task's handlers are dropped (`Run.deliver`).
    var cancelledEvent: Event?
    var completed = false
    if leaf.cancelHandler {
      run.onCancel { [self] in
        guard !completed else { return }
        observation.cancels[leaf.id] += 1
        cancelledEvent?.action = nil
      }
    }
    switch leaf.behavior {
    case .sync(let result):
      completed = true
      deliver(result)
    case .later(let ticks, let result):
      let event = schedule(after: ticks) {
        completed = true
        deliver(result)
      }
      if leaf.cancelHandler { cancelledEvent = event }
    case .never, .drop: break
    case .neverAdvancing(let ticks): advance(by: ticks)
    case .twice(let first, let ticks, let second):
      completed = true
      deliver(first)
      // 4.2: the second call is refused; the event stands for the handler the task keeps until then.
      _ = schedule(after: ticks) { [self] in
        if mutation == .secondCallDelivered { deliver(second) }
      }
    }
  }

  private func startRetry(
    _ input: Node, retries: Int, fn: Int, backoff: Int?, _ run: Run, _ deliver: @escaping (SimResult) -> Void
  ) {
    // 8.5, 8.6: the whole input again after a failure, at most `retries` more times while the predicate accepts
    // the error; the predicate is not asked when none remain; a backoff waits before each retry.
    var remaining = max(retries, 0) + (mutation == .retryOneTooMany ? 1 : 0)
    var attempt: Run?
    var timer: Event?
    run.onCancel {
      attempt?.cancel()
      timer?.action = nil
    }
    func tryOnce() {
      let current = Run()
      attempt = current
      start(input, current) { [self] result in
        current.finish()
        if case .failure(let error) = result, remaining > 0 {
          call(fn)
          if SimFunctions.shouldRetry(fn, error) {
            remaining -= 1
            if let backoff {
              timer = schedule(after: backoff) { tryOnce() }
            } else {
              tryOnce()
            }
            return
          }
        }
        deliver(result)
      }
    }
    tryOnce()
  }

  private func startReduce(_ inputs: [Node], fn: Int, _ run: Run, _ deliver: @escaping (SimResult) -> Void) {
    // 11.2-11.5: one after another; combine once per value; the first failure ends it; cancel stops the current.
    var current: Run?
    run.onCancel { current?.cancel() }
    func step(_ index: Int, _ accumulated: Int) {
      guard index < inputs.count else { return deliver(.success(accumulated)) }
      let input = Run()
      current = input
      start(inputs[index], input) { [self] result in
        input.finish()
        switch result {
        case .success(let value):
          call(fn)
          step(index + 1, SimFunctions.combine(fn, accumulated, value))
        case .failure: deliver(result)
        }
      }
    }
    step(0, fn)
  }

  private enum Rule {
    case allSucceed
    case allSettle
    case first
    case firstSuccess
    /// `first(of:where:)`: the predicate `fn` runs on each value (15.5) and an accepted value decides.
    case firstAccepted(Int)
  }

  /// `all`, `zip`, `allSettled`, `race`, `any` (21–25): inputs start in order, at most `limit` at once; a decisive
  /// result cancels the inputs still running, then is delivered, and the rest never start.
  private func gather(
    _ inputs: [Node], limit: Int?, _ run: Run, _ deliver: @escaping (SimResult) -> Void, rule: Rule,
    whenAllDelivered: @escaping ([SimResult]) -> SimResult
  ) {
    var results: [SimResult?] = Array(repeating: nil, count: inputs.count)
    var runs: [Run?] = Array(repeating: nil, count: inputs.count)
    var next = 0
    var running = 0
    var over = false
    var driving = false
    func finish(_ result: SimResult) {
      over = true
      for input in runs { input?.cancel() }
      deliver(result)
    }
    run.onCancel {
      over = true
      for input in runs { input?.cancel() }
    }
    // One start loop at a time: an input that delivers while a later one is starting (inside that start) leaves the
    // next start to the loop that is running, after the start in progress returns.
    func pump() {
      guard !driving else { return }
      driving = true
      defer { driving = false }
      while !over, next < inputs.count, limit.map({ running < $0 }) ?? true {
        let index = next
        next += 1
        running += 1
        let input = Run()
        runs[index] = input
        start(inputs[index], input) { result in
          input.finish()
          running -= 1
          results[index] = result
          switch (rule, result) {
          case (.allSucceed, .failure), (.first, _), (.firstSuccess, .success): return finish(result)
          case (.firstAccepted(let fn), .success(let value)):
            self.call(fn)
            if SimFunctions.accepts(fn, value) { return finish(result) }
          default: break
          }
          if results.allSatisfy({ $0 != nil }) { return finish(whenAllDelivered(results.map { $0! })) }
          pump()
        }
      }
    }
    if inputs.isEmpty { return finish(whenAllDelivered([])) }
    pump()
  }

  private func joinShared(_ index: Int, _ run: Run, _ deliver: @escaping (SimResult) -> Void) {
    let state = shares[index]
    if let result = state.result { return deliver(result) }
    state.waiters.append((run, deliver))
    run.onCancel {
      state.waiters.removeAll { $0.0 === run }
      if state.waiters.isEmpty, state.result == nil, let work = state.work {
        // 20.5: the last run waiting cancels the work; the next run starts it anew.
        state.work = nil
        work.cancel()
      }
    }
    guard state.work == nil else { return }
    let work = Run()
    state.work = work
    start(program.shares[index], work) { result in
      work.finish()
      state.result = result
      state.work = nil
      let waiters = state.waiters
      state.waiters = []
      for (_, deliver) in waiters { deliver(result) }
    }
  }

  private func startFuture(
    _ node: Node, ops: [FutureOp], branches: [FutureBranch] = [], index: Int = -1
  ) -> FutureState {
    let state = FutureState()
    startedFutures.append(state)
    let work = Run()
    start(node, work) { [self] result in
      work.finish()
      // 19.7: each stage runs once, when its input arrives.
      var result = result
      for op in ops {
        switch (op, result) {
        case (.map(let fn), .success(let value)), (.flatMap(let fn), .success(let value)):
          call(fn)
          result = .success(SimFunctions.map(fn, value))
        case (.mapError(let fn), .failure(let error)):
          call(fn)
          result = .failure(SimFunctions.mapError(fn, error))
        case (.flatMapError(let fn), .failure(let error)):
          call(fn)
          result = SimFunctions.thenResult(fn, error.code)
        case (.recover(let fn), .failure(let error)):
          call(fn)
          result = .success(SimFunctions.recover(fn, error))
        case (.always(let fn), .success):
          call(fn)
        case (.always(let fn), .failure):
          if mutation != .futureAlwaysOnSuccessOnly { call(fn) }
        case (.fold(let fn), .success(let value)):
          // `Future.fold`: a step for each element in turn; the first failure ends the fold.
          result = .success(value)
          for element in SimFunctions.foldElements {
            guard case .success(let partial) = result else { break }
            call(fn)
            result = SimFunctions.thenResult(fn, partial &+ element)
          }
        default: break
        }
      }
      state.result = result
      // 19.4: the branches, registered on the future one after another, are called in that order.
      for branch in mutation == .futureBranchesReversed ? branches.reversed() : branches
      where branch.calls(on: result) {
        call(branch.fn)
        observation.branchOrder[index, default: []].append(branch.fn)
      }
      let waiters = state.waiters
      state.waiters = []
      for (_, deliver) in waiters { deliver(result) }
    }
    return state
  }

  /// `future.promise` (20.2): the result at once if known, otherwise when the future completes; a cancelled run
  /// lets go of the future (20.4).
  private func view(_ state: FutureState, _ run: Run, _ deliver: @escaping (SimResult) -> Void) {
    if let result = state.result { return deliver(result) }
    state.waiters.append((run, deliver))
    run.onCancel { state.waiters.removeAll { $0.0 === run } }
  }
}

extension FutureBranch {
  /// Whether the branch's closure is called when its future completes with `result`.
  func calls(on result: SimResult) -> Bool {
    switch (self, result) {
    case (.observe, _), (.op(.always), _): true
    case (.op(.map), .success), (.op(.flatMap), .success): true
    case (.op(.mapError), .failure), (.op(.flatMapError), .failure), (.op(.recover), .failure): true
    default: false
    }
  }
}
