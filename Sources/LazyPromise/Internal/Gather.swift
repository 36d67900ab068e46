import Synchronization

/// The state of one run of a combinator over promises (`all`, `allSettled`, `race`, `any`, `zip`, `first(of:where:)`).
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do; the engine
/// does it with the lock released, so no input is started, cancelled or delivered to under the lock.
///
/// `state` is `.running` until the run is decided or cancelled, then `.finished` for good:
///
/// - `.running`: `begin` makes the caller the driver, which takes inputs from `nextToStart()` (at most `limit`
///   running at once) until it gets `nil`. Each input's slot goes `.waiting` → `.starting` (its `run` is being
///   called) → `.running` (`started` gave its handle) → `.delivered` (`received`); an input that delivers before
///   its `run` returns skips `.running`. A result received while no one drives, with inputs left to start, makes
///   its receiver the driver. `interrupt` marks the run, which stays `.running`.
/// - `.finished`: `begin` with no inputs, a decisive result, the last result and `cancel` end the run; every later
///   event is ignored, except that an input whose `run` returns only now is cancelled.
/// - `.modifying`: only inside a transition, which takes the running state out so that the slots are changed in
///   place rather than copied.
///
/// An event that cannot happen traps with the state and the event: `begin` twice, the driver asking for an input
/// while not driving, an input returning its handle twice or delivering twice.
struct GatherStateMachine<T, E: Error> {
  /// When the combined run is decided.
  enum Rule {
    /// `all`, `zip`: when every input has succeeded, or at the first failure.
    case allSucceed
    /// `allSettled`: when every input has delivered.
    case allSettle
    /// `race`: at the first result.
    case first
    /// `any`: at the first success, or when every input has failed.
    case firstSuccess
    /// `first(of:where:)`: at the first result `decides` accepts, or when every input has delivered. `decides` is
    /// the library's own test of a result (it runs under the lock), never a caller's function.
    case firstWhere(_ decides: @Sendable (Result<T, E>) -> Bool)
  }

  /// What the engine does after `begin` or `received`.
  enum Action {
    case none
    /// Start inputs while `nextToStart()` gives one: the caller has become the driver.
    case drive
    /// The run is decided by `decisive` (or, when `nil`, by `results`, which then holds every input's result):
    /// cancel the inputs still running, then deliver.
    case finish(decisive: Result<T, E>?, results: [Result<T, E>?], cancel: [RunHandle])
  }

  /// What to do with an input that has just started.
  enum Started {
    /// Nothing: it runs on.
    case keep
    /// Interrupt it: the combined run was interrupted.
    case interrupt
    /// Cancel it: the combined run is already over.
    case cancel
  }

  /// One input of a running combinator.
  enum Slot {
    /// Not started yet.
    case waiting
    /// Its `run` is being called and has not returned its handle yet.
    case starting
    /// Running under this handle.
    case running(RunHandle)
    /// Delivered this result, which did not decide the run.
    case delivered(Result<T, E>)
  }

  /// A run that is not decided yet.
  struct Running {
    /// One slot per input, in input order.
    var slots: [Slot]
    /// The next input to start: every input before it has started.
    var nextIndex = 0
    /// How many inputs have delivered; `nextIndex - delivered` are running.
    var delivered = 0
    /// Some caller is the driver, starting inputs.
    var driving = false
    /// The combined run was interrupted (cooperative cancellation): every input, running or started later, is too.
    var interrupted = false
  }

  /// Where the run is; see the type's documentation.
  enum State {
    case running(Running)
    case finished
    case modifying
  }

  let rule: Rule
  let limit: Int
  private(set) var state: State

  init(count: Int, rule: Rule, limit: Int?) {
    self.rule = rule
    self.limit = max(1, limit ?? count)
    state = .running(Running(slots: Array(repeating: .waiting, count: count)))
  }

  /// The combined run begins: with no inputs it is decided at once; otherwise the caller drives.
  mutating func begin() -> Action {
    guard var running = takeRunning("begin") else { return .none }  // cancelled before it began
    precondition(!running.driving && running.nextIndex == 0, "gather: begin in state .running (already begun)")
    guard !running.slots.isEmpty else {
      state = .finished
      return .finish(decisive: nil, results: [], cancel: [])
    }
    running.driving = true
    state = .running(running)
    return .drive
  }

  /// The driver asks for the next input to start; `nil` ends its turn.
  mutating func nextToStart() -> Int? {
    guard var running = takeRunning("next input asked for") else { return nil }
    precondition(running.driving, "gather: next input asked for in state .running with no driver")
    let index = running.nextIndex
    guard index < running.slots.count, index - running.delivered < limit else {
      running.driving = false
      state = .running(running)
      return nil
    }
    running.slots[index] = .starting
    running.nextIndex = index + 1
    state = .running(running)
    return index
  }

  /// An input's `run` returned its handle.
  mutating func started(_ index: Int, handle: RunHandle) -> Started {
    guard var running = takeRunning("input \(index) started") else { return .cancel }
    switch running.slots[index] {
    case .starting:
      running.slots[index] = .running(handle)
    case .delivered:
      break  // it delivered before its `run` returned: nothing to cancel
    case .waiting, .running:
      preconditionFailure("gather: input \(index) started in state .running with its slot \(running.slots[index])")
    }
    let interrupted = running.interrupted
    state = .running(running)
    return interrupted ? .interrupt : .keep
  }

  /// An input delivered `result`.
  mutating func received(_ result: Result<T, E>, from index: Int) -> Action {
    guard var running = takeRunning("input \(index) delivered") else { return .none }
    switch running.slots[index] {
    case .starting, .running:
      running.slots[index] = .delivered(result)
    case .waiting, .delivered:
      preconditionFailure("gather: input \(index) delivered in state .running with its slot \(running.slots[index])")
    }
    let decisive: Bool
    switch (rule, result) {
    case (.first, _), (.allSucceed, .failure), (.firstSuccess, .success): decisive = true
    case (.firstWhere(let decides), _): decisive = decides(result)
    default: decisive = false
    }
    if decisive {
      state = .finished
      return .finish(decisive: result, results: [], cancel: running.handles())
    }
    running.delivered += 1
    if running.delivered == running.slots.count {
      state = .finished
      return .finish(decisive: nil, results: running.results(), cancel: [])
    }
    guard !running.driving, running.nextIndex < running.slots.count else {
      state = .running(running)
      return .none
    }
    running.driving = true
    state = .running(running)
    return .drive
  }

  /// The combined run was cancelled: nothing more starts or is delivered; cancel the inputs still running.
  mutating func cancel() -> [RunHandle] {
    guard let running = takeRunning("cancel") else { return [] }
    state = .finished
    return running.handles()
  }

  /// The combined run was interrupted: interrupt the inputs still running, and every input started from now on;
  /// results are still collected and delivered.
  mutating func interrupt() -> [RunHandle] {
    guard var running = takeRunning("interrupt") else { return [] }
    running.interrupted = true
    let handles = running.handles()
    state = .running(running)
    return handles
  }

  /// Takes the running state out for a transition, leaving `.modifying` until the transition stores the next
  /// state; `nil` once the run is finished.
  private mutating func takeRunning(_ event: @autoclosure () -> String) -> Running? {
    switch state {
    case .running(let running):
      state = .modifying
      return running
    case .finished:
      return nil
    case .modifying:
      preconditionFailure("gather: \(event()) in state .modifying")
    }
  }
}

extension GatherStateMachine.Action: Sendable where T: Sendable {}

extension GatherStateMachine.Running {
  // Both loops read the slots by index: a `for`-`in` loop or `map` over them, unspecialized (the library's generic
  // code runs for the caller's types), reads each slot through `Collection`'s read accessor, which allocates a
  // frame for a slot whose size is only known at run time.

  /// The handles of the inputs still running.
  func handles() -> [RunHandle] {
    var handles: [RunHandle] = []
    for index in slots.indices {
      if case .running(let handle) = slots[index] { handles.append(handle) }
    }
    return handles
  }

  /// Every input's result, once every input has delivered.
  func results() -> [Result<T, E>?] {
    var results: [Result<T, E>?] = []
    results.reserveCapacity(slots.count)
    for index in slots.indices {
      if case .delivered(let result) = slots[index] { results.append(result) } else { results.append(nil) }
    }
    return results
  }
}

/// One run of a combinator: starts the inputs (at most `limit` at once), collects their results, and delivers
/// once the rule decides, cancelling the inputs still running.
///
/// Starting is a loop run by one "driver" at a time, never a recursion: an input that completes synchronously
/// returns to the loop, which starts the next, so any number of synchronous inputs runs in constant stack.
final class Gather<T: Sendable, E: Error>: @unchecked Sendable {  // its mutable state is behind `state`'s lock
  /// Delivers the combined result: `decisive` if one input decided it, otherwise every input's result.
  typealias Finish = @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Void

  private let inputs: [Promise<T, E>]
  private let state: Lock<GatherStateMachine<T, E>>
  /// Set until `deinit`, which releases it in bounded stack: it holds the run of the enclosing combinator, so
  /// nested combinators' runs are a chain that would otherwise be freed recursively.
  private var finish: Finish?

  init(
    _ inputs: [Promise<T, E>], rule: GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    finish: @escaping Finish
  ) {
    self.inputs = inputs
    self.state = Lock(GatherStateMachine(count: inputs.count, rule: rule, limit: limit))
    self.finish = finish
  }

  deinit {
    // `releaseInBoundedStack`, written out for a function-typed property (see there).
    _hop(
      { finish = nil },
      {
        let deferred = finish
        return { withExtendedLifetime(deferred) {} }
      })
  }

  /// Starts the run.
  func start() {
    perform(state.withLock { $0.begin() })
  }

  /// Cancels the run: no more inputs start, the running ones are cancelled, nothing is delivered.
  func cancel() {
    for handle in state.withLock({ $0.cancel() }) { handle.cancel() }
  }

  /// Interrupts the run (cooperative cancellation): the inputs' cancel handlers run, now and as each starts, and
  /// the run still delivers what they then deliver.
  func interrupt() {
    for handle in state.withLock({ $0.interrupt() }) { handle.interrupt() }
  }

  /// Stops the run the way the combined run was stopped.
  func stop(_ mode: StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: interrupt()
    }
  }

  private func perform(_ action: GatherStateMachine<T, E>.Action) {
    switch action {
    case .none:
      return
    case .drive:
      drive()
    case .finish(let decisive, let results, let cancel):
      for handle in cancel { handle.cancel() }
      finish?(decisive, results)
    }
  }

  private func drive() {
    while let index = state.withLock({ $0.nextToStart() }) {
      // Started through the trampoline (`run` joins), so combinators nested to any depth start in bounded stack.
      let handle = RunHandle()
      inputs[index].run(under: handle) { result in
        self.perform(self.state.withLock { $0.received(result, from: index) })
      }
      switch state.withLock({ $0.started(index, handle: handle) }) {
      case .keep: break
      case .interrupt: handle.interrupt()
      case .cancel: handle.cancel()
      }
    }
  }
}

extension Gather {
  /// The lazy promise of a combinator over `inputs`: each run gathers them afresh, cancels them if the run is
  /// cancelled (interrupts them if it is interrupted), and delivers what `combine` makes of the decisive result or
  /// of every input's result.
  static func promise<Output, Failure>(
    _ inputs: [Promise<T, E>], rule: GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    combine: @escaping @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Result<Output, Failure>
  ) -> Promise<Output, Failure> {
    Promise<Output, Failure>(combinator: { run, completion in
      let gather = Gather(inputs, rule: rule, limit: limit) { decisive, results in
        completion(combine(decisive, results))
      }
      run.onStop(gather.stop)
      gather.start()
    })
  }
}
