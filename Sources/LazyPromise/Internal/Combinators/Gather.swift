/// The state of one run of a combinator over promises (`all`, `allSettled`, `race`, `any`, `zip`, `first(of:where:)`).
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do; the engine
/// does it with the lock released, so no input is started, cancelled or delivered to under the lock.
///
/// `phase` is `.running` until the run is decided or cancelled, then `.finished` for good. While running, the driver
/// takes inputs from `nextToStart()` (at most `limit` at once), and each slot goes `.waiting` → `.starting` →
/// `.running` → `.delivered`. An input's handle is made as it is taken, so a decision or a stop that comes while
/// that input is still starting (its own start resolved an earlier input, or cancelled the run) cancels it at once.
/// Once finished, every event is ignored except an input whose `run` returns only now, which is cancelled (again).
///
/// `all`, `allSettled`, `race`, `any` and `first(of:where:)` are `@inlinable` down to this engine, so the caller's
/// module specializes it and no type is looked up in the runtime's metadata cache per input. `zip` is not (its
/// specialized form crashed in release builds), so for the unspecialized engine the phase, the slots and the start
/// decision stay non-generic types, with the results beside the slots; and `inputs` and `deliver` stay outside
/// `running` and every `Action`, handed to the engine by `end` or `stop(.cancel)` (contract 6.7). Each choice
/// was measured (Performance.md, "Measured alternatives in the engine").
///
/// An event that cannot happen traps with the state and the event: `begin` twice, the driver asking for an input
/// while not driving, an input returning its handle twice or delivering twice.
@usableFromInline
struct _GatherStateMachine<T, E: Error> {
  /// Delivers the combined result: `decisive` if one input decided it, otherwise every input's result.
  @usableFromInline
  typealias Finish = @Sendable (_ decisive: Result<T, E>?, _ results: [Result<T, E>?]) -> Void

  /// What a run held, handed to the engine when it ends: no inputs and a `finish` that does nothing if a cancel
  /// took it first.
  @usableFromInline
  struct Held {
    @usableFromInline let inputs: [Promise<T, E>]
    @usableFromInline let finish: Finish

    @inlinable
    init(inputs: [Promise<T, E>], finish: @escaping Finish) {
      self.inputs = inputs
      self.finish = finish
    }
  }

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

  /// What the engine does after the run was stopped.
  @usableFromInline
  enum Stop {
    case none
    /// Interrupt these inputs, the ones running.
    case interrupt([RunHandle])
    /// Cancel these inputs, the ones running, then let go of what the run held (if `end` had not taken it).
    case cancel([RunHandle], ended: Held)
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
    /// The handle of the input whose `run` is being called (one at a time: there is one driver), not retained: the
    /// driver holds it until it reports, with the handle, that the `run` returned (`started`), which clears it, as a
    /// delivery from inside that `run` does. Beside the slots, not in its `.starting` slot: a second case with a payload makes every copy
    /// of a slot an outlined switch, and a retained handle costs every input a retain and a release (both measured:
    /// Proposals/performance-history.md).
    @usableFromInline var starting: Unmanaged<RunHandle>?

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
  /// What the run holds until it ends, the inputs and the function that delivers: none and a function that does
  /// nothing once `end` took them. Not optionals: unspecialized, an optional costs metadata look-ups (Performance.md,
  /// "Measured alternatives in the engine").
  @usableFromInline var inputs: [Promise<T, E>]
  @usableFromInline var deliver: Finish

  /// A run over `inputs` that delivers with `finish`, at most `limit` inputs running at once (all of them if `nil`).
  @inlinable
  init(_ inputs: [Promise<T, E>], rule: Rule, limit: Int?, finish: @escaping Finish) {
    let count = inputs.count
    self.rule = rule
    self.limit = max(1, limit ?? count)
    self.inputs = inputs
    deliver = finish
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

  /// The driver begins a turn: the inputs (one reference to the array, not a copy of each), which it keeps until the
  /// turn ends even if the run ends meanwhile; none once the run has ended.
  @inlinable
  func inputsForTurn() -> [Promise<T, E>] {
    inputs
  }

  /// The driver asks for the next input to start, and the handle to run it under, made here so that a stop or a
  /// decision that comes while the input is still starting cancels it at once; `nil` ends the driver's turn.
  @inlinable
  mutating func nextToStart() -> (index: Int, handle: RunHandle)? {
    guard phase == .running else { return nil }
    precondition(running.driving, "gather: next input asked for in state .running with no driver")
    let index = running.nextIndex
    guard index < running.slots.count, index - running.delivered < limit else {
      running.driving = false
      return nil
    }
    let handle = RunHandle()
    running.slots[index] = .starting
    running.starting = Unmanaged.passUnretained(handle)
    running.nextIndex = index + 1
    return (index, handle)
  }

  /// An input's `run` under `handle` (the one `nextToStart` made, which the driver holds until this returns)
  /// returned.
  @inlinable
  mutating func started(_ index: Int, handle: RunHandle) -> _GatherStarted {
    guard phase == .running else { return .cancel }
    switch running.slots[index] {
    case .starting:
      running.slots[index] = .running(handle)
      running.starting = nil
    case .delivered:
      return running.interrupted ? .interrupt : .delivered  // it delivered before its `run` returned
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
    case .starting:
      running.starting = nil  // delivered before its `run` returned: nothing of it is left to cancel
      running.slots[index] = .delivered
    case .running:
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

  /// The combined run was stopped.
  ///
  /// Cancelled, nothing more starts or is delivered: a run decided but not yet ended (its `.finish` action on its
  /// way) then finds nothing to deliver with. Interrupted, it runs on with every input interrupted, the running ones
  /// and every one started from now on, and its results are still collected and delivered.
  @inlinable
  mutating func stop(_ mode: _StopMode) -> Stop {
    switch mode {
    case .cancel:
      let handles = phase == .running ? running.handles() : []
      finish()
      return .cancel(handles, ended: end())
    case .interrupt:
      guard phase == .running else { return .none }
      running.interrupted = true
      return .interrupt(running.handles())
    }
  }

  /// Ends the run after its `.finish` action, or in the engine's `deinit`: what it held, to deliver with and let go
  /// of; empty if a cancel took it first.
  @inlinable
  mutating func end() -> Held {
    if phase == .running { finish() }
    let held = Held(inputs: inputs, finish: deliver)
    inputs = []
    deliver = { _, _ in }  // a closure that captures nothing: no allocation
    return held
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
extension _GatherStateMachine.Held: Sendable where T: Sendable {}
extension _GatherStateMachine.Stop: Sendable where T: Sendable {}

extension _GatherStateMachine.Running {
  // The loop reads the slots by index, as the engine's generic code did when a slot's size was only known at run
  // time (a `for`-`in` loop or `map` then read each through `Collection`'s read accessor, which allocated a frame).

  /// The handles of the inputs still running or starting.
  @inlinable
  func handles() -> [RunHandle] {
    var handles: [RunHandle] = []
    for index in slots.indices {
      if case .running(let handle) = slots[index] { handles.append(handle) }
    }
    if let starting { handles.append(starting.takeUnretainedValue()) }  // the last one taken: input order holds
    return handles
  }
}

/// One run of a combinator: starts the inputs (at most `limit` at once), collects their results, and delivers
/// once the rule decides, cancelling the inputs still running. Its state, what it holds included, is
/// `_GatherStateMachine`; each event takes the lock once, and the engine does what the transition returns with the
/// lock released.
///
/// Starting is a loop run by one "driver" at a time, never a recursion: an input that completes synchronously
/// returns to the loop, which starts the next, so any number of synchronous inputs runs in constant stack.
///
/// The inputs' completion handlers hold this engine, and once the run has ended, this engine holds nothing else.
/// The run's stop handler holds it, so that cancelling reaches every running input (contract 6.7 names what that
/// keeps when an input's task drops its completion handler).
@usableFromInline
final class _Gather<T: Sendable, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  @usableFromInline typealias Machine = _GatherStateMachine<T, E>

  @usableFromInline let lock = _StateLock()  // guards `machine`, kept beside it: see `_StateLock`
  /// Only touched inside `lock.withLock`, or alone in `deinit`.
  @usableFromInline @exclusivity(unchecked) var machine: Machine

  @inlinable
  init(_ inputs: [Promise<T, E>], rule: Machine.Rule, limit: Int? = nil, finish: @escaping Machine.Finish) {
    machine = Machine(inputs, rule: rule, limit: limit, finish: finish)
  }

  deinit {
    // A run that never ended keeps what it held until now. Its `finish` holds the run of the enclosing combinator,
    // so nested combinators' runs are a chain that would otherwise be freed recursively.
    guard machine.phase == .running else { return }  // ended: the engine calls `end` after every `.finish`
    var held: Machine.Held? = machine.end()
    releaseInBoundedStack(&held)
  }

  /// Starts the run.
  @inlinable
  func start() {
    perform(lock.withLock { machine.begin() })
  }

  /// Stops the run the way the combined run was stopped: cancelled, no more inputs start, the running ones are
  /// cancelled, nothing is delivered; interrupted (cooperative cancellation), the inputs' cancel handlers run, now
  /// and as each starts, and the run still delivers what they then deliver.
  @inlinable
  func stop(_ mode: _StopMode) {
    switch lock.withLock({ machine.stop(mode) }) {
    case .none:
      return
    case .interrupt(let handles):
      for handle in handles { handle._interrupt() }
    case .cancel(let handles, let ended):
      for handle in handles { handle.cancel() }
      withExtendedLifetime(ended) {}  // released here, with the lock no longer held
    }
  }

  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      return
    case .drive:
      drive()
    case .finish(let decisive, let results, let cancel):
      for handle in cancel { handle.cancel() }
      let held = lock.withLock { machine.end() }
      // Cancel handlers the trampoline queued run before the delivery (contract 6.8).
      if !cancel.isEmpty, _afterQueued({ held.finish(decisive, results) }) { return }
      held.finish(decisive, results)
    // `held` is released here, with the lock no longer held, and not through the trampoline: what it holds is
    // shallow by now (the enclosing run's continuation, whose engine has already ended or runs on; input promises
    // their owners still hold), so this release does not recurse down a chain.
    }
  }

  @inlinable
  func drive() {
    let inputs = lock.withLock { machine.inputsForTurn() }
    while let (index, handle) = lock.withLock({ machine.nextToStart() }) {
      // Started through the trampoline (`run` joins), so combinators nested to any depth start in bounded stack.
      inputs[index]._run(under: handle) { result in
        self.perform(self.lock.withLock { self.machine.received(result, from: index) })
      }
      switch lock.withLock({ machine.started(index, handle: handle) }) {
      case .delivered: continue  // delivered at once: nothing of it waits on the trampoline
      case .keep: break
      case .interrupt: handle._interrupt()
      case .cancel: handle.cancel()
      }
      // An input whose work was queued on the trampoline has not delivered yet: the next starts after it, as
      // by direct calls (contract 6.8). This turn's driver stays the driver.
      if _afterQueued({ self.drive() }) { return }
    }
  }
}

extension _Gather {
  /// The lazy promise of a combinator over `inputs`: each run gathers them afresh, cancels them if the run is
  /// cancelled (interrupts them if it is interrupted), and delivers what `combine` makes of the decisive result or
  /// of every input's result.
  @inlinable
  static func promise<Output, Failure>(
    _ inputs: [Promise<T, E>], rule: Machine.Rule, limit: Int? = nil,
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
  /// Its `run` is being called, under `Running.starting`, and has not returned yet.
  case starting
  /// Running under this handle.
  case running(RunHandle)
  /// Delivered a result that did not decide the run.
  case delivered
}

/// What the engine does with an input whose `run` has just returned its handle. Not generic, like `_GatherSlot`.
@usableFromInline
enum _GatherStarted {
  /// Nothing: it delivered before its `run` returned.
  case delivered
  /// Nothing: it runs on.
  case keep
  /// Interrupt it: the combined run was interrupted.
  case interrupt
  /// Cancel it: the combined run is already over.
  case cancel
}
