/// The state of one run of a combinator over promises (`all`, `allSettled`, `race`, `any`, `zip`, `first(of:where:)`).
///
/// A value type whose transitions return what the engine must do; the engine applies them with the lock
/// released, so no input is started, cancelled or delivered to under the lock.
struct _GatherStateMachine<T, E: Error> {
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

  /// What the engine does after a transition.
  enum Action {
    case none
    /// Start inputs while `nextToStart()` gives one: the caller has become the driver.
    case drive
    /// The run is decided by `decisive` (or, when `nil`, by `results`, which then holds every input's result):
    /// cancel the inputs still running, then deliver.
    case finish(decisive: Result<T, E>?, results: [Result<T, E>?], cancel: [RunHandle])
  }

  let rule: Rule
  let limit: Int
  var results: [Result<T, E>?]
  var settled: [Bool]
  var handles: [RunHandle?]
  var nextIndex = 0
  var running = 0
  var remaining: Int
  var finished = false
  var driving = false
  /// The combined run was interrupted (cooperative cancellation): every input, running or started later, is too.
  var interrupted = false

  init(count: Int, rule: Rule, limit: Int?) {
    self.rule = rule
    self.limit = max(1, limit ?? count)
    results = Array(repeating: nil, count: count)
    settled = Array(repeating: false, count: count)
    handles = Array(repeating: nil, count: count)
    remaining = count
  }

  /// The combined run begins: with no inputs it is decided at once; otherwise the caller drives.
  mutating func begin() -> Action {
    guard remaining > 0 else {
      finished = true
      return .finish(decisive: nil, results: [], cancel: [])
    }
    driving = true
    return .drive
  }

  /// The driver asks for the next input to start; `nil` ends its turn.
  mutating func nextToStart() -> Int? {
    guard !finished, nextIndex < results.count, running < limit else {
      driving = false
      return nil
    }
    running += 1
    nextIndex += 1
    return nextIndex - 1
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

  /// An input's `run` returned its handle.
  mutating func started(_ index: Int, handle: RunHandle) -> Started {
    guard !finished else { return .cancel }
    if !settled[index] { handles[index] = handle }
    return interrupted ? .interrupt : .keep
  }

  /// An input delivered `result`.
  mutating func received(_ result: Result<T, E>, from index: Int) -> Action {
    guard !finished else { return .none }
    running -= 1
    remaining -= 1
    settled[index] = true
    handles[index] = nil
    let decisive: Bool
    switch (rule, result) {
    case (.first, _), (.allSucceed, .failure), (.firstSuccess, .success): decisive = true
    case (.firstWhere(let decides), _): decisive = decides(result)
    default: decisive = false
    }
    if decisive {
      return finish(decisive: result, results: [])
    }
    results[index] = result
    if remaining == 0 {
      return finish(decisive: nil, results: results)
    }
    guard !driving, nextIndex < results.count else { return .none }
    driving = true
    return .drive
  }

  /// The combined run was cancelled: nothing more starts or is delivered; cancel the inputs still running.
  mutating func cancel() -> [RunHandle] {
    guard !finished else { return [] }
    finished = true
    defer { handles = [] }
    return handles.compactMap { $0 }
  }

  /// The combined run was interrupted: interrupt the inputs still running, and every input started from now on;
  /// results are still collected and delivered.
  mutating func interrupt() -> [RunHandle] {
    guard !finished else { return [] }
    interrupted = true
    return handles.compactMap { $0 }
  }

  private mutating func finish(decisive: Result<T, E>?, results: [Result<T, E>?]) -> Action {
    finished = true
    defer {
      handles = []
      self.results = []
    }
    return .finish(decisive: decisive, results: results, cancel: handles.compactMap { $0 })
  }
}

/// One run of a combinator: starts the inputs (at most `limit` at once), collects their results, and delivers
/// once the rule decides, cancelling the inputs still running.
///
/// Starting is a loop run by one "driver" at a time, never a recursion: an input that completes synchronously
/// returns to the loop, which starts the next, so any number of synchronous inputs runs in constant stack.
final class _Gather<T: Sendable, E: Error>: @unchecked Sendable {  // its mutable state is behind `state`'s lock
  /// Delivers the combined result: `decisive` if one input decided it, otherwise every input's result.
  typealias Finish = @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Void

  private let inputs: [Promise<T, E>]
  private let state: _Locked<_GatherStateMachine<T, E>>
  /// Set until `deinit`, which releases it in bounded stack: it holds the run of the enclosing combinator, so
  /// nested combinators' runs are a chain that would otherwise be freed recursively.
  private var finish: Finish?

  init(
    _ inputs: [Promise<T, E>], rule: _GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    finish: @escaping Finish
  ) {
    self.inputs = inputs
    self.state = .make(_GatherStateMachine(count: inputs.count, rule: rule, limit: limit))
    self.finish = finish
  }

  deinit {
    // `_releaseInBoundedStack`, written out for a function-typed property (see there).
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
    for handle in state.withLock({ $0.interrupt() }) { handle._interrupt() }
  }

  /// Stops the run the way the combined run was stopped.
  func stop(_ mode: _StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: interrupt()
    }
  }

  private func perform(_ action: _GatherStateMachine<T, E>.Action) {
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
      // Started through the trampoline (`_run` joins), so combinators nested to any depth start in bounded stack.
      let handle = RunHandle()
      inputs[index]._run(under: handle) { result in
        self.perform(self.state.withLock { $0.received(result, from: index) })
      }
      switch state.withLock({ $0.started(index, handle: handle) }) {
      case .keep: break
      case .interrupt: handle._interrupt()
      case .cancel: handle.cancel()
      }
    }
  }
}

extension _Gather {
  /// The lazy promise of a combinator over `inputs`: each run gathers them afresh, cancels them if the run is
  /// cancelled (interrupts them if it is interrupted), and delivers what `combine` makes of the decisive result or
  /// of every input's result.
  static func promise<Output, Failure>(
    _ inputs: [Promise<T, E>], rule: _GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    combine: @escaping @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Result<Output, Failure>
  ) -> Promise<Output, Failure> {
    Promise<Output, Failure>(_operator: { run, completion in
      let gather = _Gather(inputs, rule: rule, limit: limit) { decisive, results in
        completion(combine(decisive, results))
      }
      run.onStop(gather.stop)
      gather.start()
    })
  }
}
