/// The state of one run of a combinator over promises (`all`, `allSettled`, `race`, `any`, `zip`, `first(of:where:)`).
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do; the engine
/// does it with the lock released, so no input is started, cancelled or delivered to under the lock.
///
/// `phase` is `.running` until the run is decided or cancelled, then `.finished` for good:
///
/// - `.running`: `begin` makes the caller the driver, which takes inputs from `nextToStart()` (at most `limit`
///   running at once) until it gets `nil`. Each input's slot goes `.waiting` → `.starting` (its `run` is being
///   called) → `.running` (`started` gave its handle) → `.delivered` (`received`); an input that delivers before
///   its `run` returns skips `.running`. A result received while no one drives, with inputs left to start, makes
///   its receiver the driver. `interrupt` marks the run, which stays `.running`.
/// - `.finished`: `begin` with no inputs, a decisive result, the last result and `cancel` end the run; every later
///   event is ignored, except that an input whose `run` returns only now is cancelled.
///
/// `all`, `allSettled`, `race`, `any` and `first(of:where:)` are `@inlinable` down to this engine, so the caller's
/// module specializes it for its `T` and `E` and no type is looked up in the runtime's metadata cache per input:
/// `Promise.all` takes 2,769 instructions per input, against 8,917 when it ran unspecialized
/// (`Benchmarks/Scripts/check-instructions.sh`, `promise.all.child`). `zip` is not: made `@inlinable` and specialized
/// by the Swift 6.3 optimizer, a `zip` of two inputs (an empty `rest` pack), made from temporaries in an `async`
/// function, crashed as soon as it ran, in release builds only (`swift test -c release`, "9.3 zip and all pass
/// cooperative cancellation on..."): a call through a null function pointer, with no use-after-free under the address
/// sanitizer (Docs/Performance.md); three inputs, or inputs held in locals, did not. So `zip`, the
/// tuple `allSettled` that calls it, and any combinator called from generic code that is not specialized run this
/// engine unspecialized, where each use of a type generic over `T` and `E` is such a look-up; for them the phase, the
/// slots and the start decision stay non-generic types (`_GatherPhase`, `_GatherSlot`, `_GatherStarted`), with the
/// results kept beside the slots. A slot carrying its result, a phase enum carrying the slots and a `(rule, result)`
/// tuple had taken the unspecialized `Promise.all` from 11,527 to 14,020 instructions per input, against 8,917 without
/// them.
///
/// An event that cannot happen traps with the state and the event: `begin` twice, the driver asking for an input
/// while not driving, an input returning its handle twice or delivering twice.
@usableFromInline
struct _GatherStateMachine<T, E: Error> {
  /// When the combined run is decided.
  @usableFromInline
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
  @usableFromInline
  enum Action {
    case none
    /// Start inputs while `nextToStart()` gives one: the caller has become the driver.
    case drive
    /// The run is decided by `decisive` (or, when `nil`, by `results`, which then holds every input's result):
    /// cancel the inputs still running, then deliver.
    case finish(decisive: Result<T, E>?, results: [Result<T, E>?], cancel: [RunHandle])
  }

  /// A run that is not decided yet.
  @usableFromInline
  struct Running {
    /// One slot per input, in input order.
    @usableFromInline var slots: [_GatherSlot]
    /// The result each input delivered, in input order, once it is `.delivered`.
    @usableFromInline var results: [Result<T, E>?]
    /// The next input to start: every input before it has started.
    @usableFromInline var nextIndex = 0
    /// How many inputs have delivered; `nextIndex - delivered` are running.
    @usableFromInline var delivered = 0
    /// Some caller is the driver, starting inputs.
    @usableFromInline var driving = false
    /// The combined run was interrupted (cooperative cancellation): every input, running or started later, is too.
    @usableFromInline var interrupted = false

    /// A run with these slots and results, no input started yet (the memberwise initializer, which inlinable code
    /// cannot call).
    @inlinable
    init(slots: [_GatherSlot], results: [Result<T, E>?]) {
      self.slots = slots
      self.results = results
    }
  }

  @usableFromInline let rule: Rule
  @usableFromInline let limit: Int
  /// Whether the run is still going; `running` holds its inputs' slots while it is. Both are set only by the
  /// transitions below (not `private(set)`: the transitions are `@inlinable`, and inlinable code cannot use a
  /// private setter).
  @usableFromInline var phase = _GatherPhase.running
  @usableFromInline var running: Running

  @inlinable
  init(count: Int, rule: Rule, limit: Int?) {
    self.rule = rule
    self.limit = max(1, limit ?? count)
    running = Running(
      slots: Array(repeating: .waiting, count: count), results: Array(repeating: nil, count: count))
  }

  /// The combined run begins: with no inputs it is decided at once; otherwise the caller drives.
  @inlinable
  mutating func begin() -> Action {
    guard phase == .running else { return .none }  // cancelled before it began
    precondition(!running.driving && running.nextIndex == 0, "gather: begin in state .running (already begun)")
    guard !running.slots.isEmpty else {
      finish()
      return .finish(decisive: nil, results: [], cancel: [])
    }
    running.driving = true
    return .drive
  }

  /// The driver asks for the next input to start; `nil` ends its turn.
  @inlinable
  mutating func nextToStart() -> Int? {
    guard phase == .running else { return nil }
    precondition(running.driving, "gather: next input asked for in state .running with no driver")
    let index = running.nextIndex
    guard index < running.slots.count, index - running.delivered < limit else {
      running.driving = false
      return nil
    }
    running.slots[index] = .starting
    running.nextIndex = index + 1
    return index
  }

  /// An input's `run` returned its handle.
  @inlinable
  mutating func started(_ index: Int, handle: RunHandle) -> _GatherStarted {
    guard phase == .running else { return .cancel }
    switch running.slots[index] {
    case .starting:
      running.slots[index] = .running(handle)
    case .delivered:
      break  // it delivered before its `run` returned: nothing to cancel
    case .waiting, .running:
      preconditionFailure("gather: input \(index) started in state .running with its slot \(running.slots[index])")
    }
    let interrupted = running.interrupted
    return interrupted ? .interrupt : .keep
  }

  /// An input delivered `result`.
  @inlinable
  mutating func received(_ result: Result<T, E>, from index: Int) -> Action {
    guard phase == .running else { return .none }
    switch running.slots[index] {
    case .starting, .running:
      running.slots[index] = .delivered
    case .waiting, .delivered:
      preconditionFailure("gather: input \(index) delivered in state .running with its slot \(running.slots[index])")
    }
    // One switch per value, not over a `(rule, result)` tuple: unspecialized, a tuple of generic types is looked up
    // in the runtime's metadata cache each time it is made.
    let succeeded: Bool
    if case .success = result { succeeded = true } else { succeeded = false }
    let decisive: Bool
    switch rule {
    case .first: decisive = true
    case .allSucceed: decisive = !succeeded
    case .firstSuccess: decisive = succeeded
    case .allSettle: decisive = false
    case .firstWhere(let decides): decisive = decides(result)
    }
    if decisive {
      let handles = running.handles()
      finish()
      return .finish(decisive: result, results: [], cancel: handles)
    }
    running.results[index] = result
    running.delivered += 1
    if running.delivered == running.slots.count {
      let results = running.results
      finish()
      return .finish(decisive: nil, results: results, cancel: [])
    }
    guard !running.driving, running.nextIndex < running.slots.count else {
      return .none
    }
    running.driving = true
    return .drive
  }

  /// The combined run was cancelled: nothing more starts or is delivered; cancel the inputs still running.
  @inlinable
  mutating func cancel() -> [RunHandle] {
    guard phase == .running else { return [] }
    let handles = running.handles()
    finish()
    return handles
  }

  /// The combined run was interrupted: interrupt the inputs still running, and every input started from now on;
  /// results are still collected and delivered.
  @inlinable
  mutating func interrupt() -> [RunHandle] {
    guard phase == .running else { return [] }
    running.interrupted = true
    let handles = running.handles()
    return handles
  }

  /// Ends the run: nothing more is started or delivered, and the slots (results, handles) are let go.
  @inlinable
  mutating func finish() {
    phase = .finished
    running = Running(slots: [], results: [])
  }
}

extension _GatherStateMachine.Rule: Sendable {}
extension _GatherStateMachine.Action: Sendable where T: Sendable {}

extension _GatherStateMachine.Running {
  // The loop reads the slots by index, as the engine's generic code did when a slot's size was only known at run
  // time (a `for`-`in` loop or `map` then read each through `Collection`'s read accessor, which allocated a frame).

  /// The handles of the inputs still running.
  @inlinable
  func handles() -> [RunHandle] {
    var handles: [RunHandle] = []
    for index in slots.indices {
      if case .running(let handle) = slots[index] { handles.append(handle) }
    }
    return handles
  }
}

/// One run of a combinator: starts the inputs (at most `limit` at once), collects their results, and delivers
/// once the rule decides, cancelling the inputs still running.
///
/// Starting is a loop run by one "driver" at a time, never a recursion: an input that completes synchronously
/// returns to the loop, which starts the next, so any number of synchronous inputs runs in constant stack.
///
/// The inputs' completion handlers hold this engine. What the run holds besides its state — the inputs and the
/// function that delivers — the engine takes out under the lock once the machine has ended the run (`takeHeld`),
/// and lets go of with the lock released; so a handler that a task keeps after that holds this small object alone,
/// which ignores a late call (contract 6.6). They stay beside the machine rather than in it: carried in the machine's
/// `Running` and handed over in its `.finish` action, they took the unspecialized `zip` of 3 from 96,051 to 102,863
/// instructions a run (`check-instructions.sh`, `promise.zip.3`), by a metadata look-up at each use of the larger
/// generic types.
@usableFromInline
final class _Gather<T: Sendable, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  /// Delivers the combined result: `decisive` if one input decided it, otherwise every input's result.
  @usableFromInline
  typealias Finish = @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Void

  /// The inputs, until the run ends; once it has begun, read and written only inside `lock.withLock`.
  @usableFromInline @exclusivity(unchecked) var inputs: [Promise<T, E>]
  /// Guards `machine`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it: where this engine runs
  /// unspecialized (`zip`, ...), a lock whose layout depends on `T` and `E` would look its type up in the runtime's
  /// metadata cache at each transition (7 look-ups per input, about 2,300 instructions).
  @usableFromInline let lock = _Lock(())
  /// Only read or written inside `lock.withLock`.
  @usableFromInline @exclusivity(unchecked) var machine: _GatherStateMachine<T, E>
  /// Delivers the combined result, until the run ends; once it has begun, read and written only inside
  /// `lock.withLock`. A run that never ends keeps it until `deinit`, which releases it in bounded stack: it holds the
  /// run of the enclosing combinator, so nested combinators' runs are a chain that would otherwise be freed
  /// recursively.
  @usableFromInline @exclusivity(unchecked) var finish: Finish?

  @inlinable
  init(
    _ inputs: [Promise<T, E>], rule: _GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    finish: @escaping Finish
  ) {
    self.inputs = inputs
    self.machine = _GatherStateMachine(count: inputs.count, rule: rule, limit: limit)
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
  @inlinable
  func start() {
    perform(lock.withLock { _ in machine.begin() })
  }

  /// Cancels the run: no more inputs start, the running ones are cancelled, nothing is delivered.
  @inlinable
  func cancel() {
    var inputs: [Promise<T, E>] = []
    var finish: Finish?
    let handles = lock.withLock { _ in
      let handles = self.machine.cancel()
      self.takeHeld(&inputs, &finish)
      return handles
    }
    for handle in handles { handle.cancel() }
    withExtendedLifetime(inputs) {}  // released here, with the lock no longer held
    withExtendedLifetime(finish) {}
  }

  /// Moves what the run holds besides its state into `inputs` and `finish`; called under `lock` once the machine has
  /// ended the run (a later call takes nothing).
  @inlinable
  func takeHeld(_ inputs: inout [Promise<T, E>], _ finish: inout Finish?) {
    inputs = self.inputs
    self.inputs = []
    finish = self.finish
    self.finish = nil
  }

  /// Interrupts the run (cooperative cancellation): the inputs' cancel handlers run, now and as each starts, and
  /// the run still delivers what they then deliver.
  @inlinable
  func interrupt() {
    for handle in lock.withLock({ _ in self.machine.interrupt() }) { handle._interrupt() }
  }

  /// Stops the run the way the combined run was stopped.
  @inlinable
  func stop(_ mode: _StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: interrupt()
    }
  }

  @inlinable
  func perform(_ action: _GatherStateMachine<T, E>.Action) {
    switch action {
    case .none:
      return
    case .drive:
      drive()
    case .finish(let decisive, let results, let cancel):
      for handle in cancel { handle.cancel() }
      var inputs: [Promise<T, E>] = []
      var finish: Finish?
      lock.withLock { _ in self.takeHeld(&inputs, &finish) }
      finish?(decisive, results)
    // `inputs` and `finish` are released here, with the lock no longer held, and not through the trampoline: what
    // they hold is shallow by now (the enclosing run's continuation, whose engine has already ended or runs on;
    // input promises their owners still hold), so this release does not recurse down a chain.
    }
  }

  @inlinable
  func drive() {
    // The inputs, read under the lock once per turn (one reference to the array, not a copy of each input), and
    // kept until the turn ends even if the run ends meanwhile.
    let inputs = lock.withLock { _ in self.inputs }
    while let index = lock.withLock({ _ in self.machine.nextToStart() }) {
      // Started through the trampoline (`run` joins), so combinators nested to any depth start in bounded stack.
      let handle = RunHandle()
      inputs[index]._run(under: handle) { result in
        self.perform(self.lock.withLock { _ in self.machine.received(result, from: index) })
      }
      switch lock.withLock({ _ in self.machine.started(index, handle: handle) }) {
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
  @inlinable
  static func promise<Output, Failure>(
    _ inputs: [Promise<T, E>], rule: _GatherStateMachine<T, E>.Rule, limit: Int? = nil,
    combine: @escaping @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Result<Output, Failure>
  ) -> Promise<Output, Failure> {
    Promise<Output, Failure>(_combinator: { run, completion in
      let gather = _Gather(inputs, rule: rule, limit: limit) { decisive, results in
        completion(combine(decisive, results))
      }
      run.onStop(gather.stop)
      gather.start()
    })
  }
}

/// Whether a gather is still running; not generic, so reading it costs no metadata look-up.
@usableFromInline
enum _GatherPhase {
  case running
  case finished
}

/// One input of a running gather. Not generic (the result is kept beside it, in `Running.results`), so the engine,
/// which runs unspecialized in the caller's module, reads and writes slots without a metadata look-up.
@usableFromInline
enum _GatherSlot {
  /// Not started yet.
  case waiting
  /// Its `run` is being called and has not returned its handle yet.
  case starting
  /// Running under this handle.
  case running(RunHandle)
  /// Delivered a result that did not decide the run.
  case delivered
}

/// What the engine does with an input whose `run` has just returned its handle. Not generic, like `_GatherSlot`.
@usableFromInline
enum _GatherStarted {
  /// Nothing: it runs on.
  case keep
  /// Interrupt it: the combined run was interrupted.
  case interrupt
  /// Cancel it: the combined run is already over.
  case cancel
}
