import Synchronization

/// The state of one run of `Promise.reduce`: which input runs, the value accumulated so far, and what the run holds.
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do; the engine does
/// it with the lock released (the caller's function, the completion, child runs). `phase`:
///
/// - `.running`: input `index` runs under `child` (`nil` until `next` starts it, and between an input's value and
///   the start of the next); `accumulated`, kept beside the phase, folds the inputs before it. `next` starts the input, or, after the last,
///   goes to `.ended` and delivers; a failure goes to `.ended` and delivers it. An interrupted run
///   (`interrupted`) runs on: the input in progress is interrupted, and so is every input started later.
/// - `.ended`: the run delivered or was cancelled. Every later event is ignored; the inputs, the caller's
///   function and the completion were handed to the engine to let go of, so an input's completion handler that its
///   task keeps holds the engine alone (contract 6.7).
struct ReduceStateMachine<T, E: Error, Accumulated> {
  /// What a run holds until it ends.
  struct Held {
    let inputs: [Promise<T, E>]
    /// Folds one value into the accumulated one in place: `reduce(_:into:_:)`'s function, or `initial:`'s wrapped.
    let update: @Sendable (inout Accumulated, T) -> Void
    let completion: @Sendable (Result<Accumulated, E>) -> Void
  }

  enum Phase {
    case running(Held, index: Int, child: RunHandle?, interrupted: Bool)
    case ended
  }

  /// What the engine does when asked for the next input.
  enum Next {
    /// Nothing: the run has ended (it was cancelled).
    case none
    /// Run `input` under `child`, interrupting it at once if `interrupted`.
    case run(Promise<T, E>, child: RunHandle, interrupted: Bool)
    /// Every input has been folded: deliver `accumulated` with `ended.completion`, then let go of `ended`.
    case deliver(Accumulated, ended: Held)
  }

  /// What the engine does after the run was stopped.
  enum Stop {
    case none
    /// Interrupt the input in progress, if one has started.
    case interrupt(RunHandle?)
    /// Cancel the input in progress, if one has started, and let go of what the run held.
    case cancel(RunHandle?, ended: Held)
  }

  private(set) var phase: Phase
  /// The inputs folded so far; `nil` while an input's value is folded into it outside the lock (moved out, so it is
  /// the only reference and `update` changes it in place), and once the run has ended.
  private var accumulated: Accumulated?

  /// A run over `held.inputs` that starts from `initial`.
  init(_ held: Held, initial: Accumulated) {
    phase = .running(held, index: 0, child: nil, interrupted: false)
    accumulated = initial
  }

  /// The engine asks for the next input to start.
  mutating func next() -> Next {
    guard case .running(let held, let index, let child, let interrupted) = phase else { return .none }
    precondition(child == nil, "reduce: next input asked for in phase .running with input \(index) in progress")
    guard index < held.inputs.count else {
      phase = .ended
      guard let delivered = accumulated.take() else { preconditionFailure("reduce: delivering while folding") }
      return .deliver(delivered, ended: held)
    }
    let started = RunHandle()
    phase = .running(held, index: index, child: started, interrupted: interrupted)
    return .run(held.inputs[index], child: started, interrupted: interrupted)
  }

  /// The input in progress succeeded: the value so far moves into `slot` (which must be `nil`), for the caller's
  /// function to fold the input's value into in place with no lock held; `false` if the run has ended. (The function
  /// is read outside the lock: returned from it, it was reabstracted at every input, `Promise.reduce.100` 2,120 →
  /// 3,120 allocations.)
  mutating func folding(into slot: inout Accumulated?) -> Bool {
    guard case .running = phase else { return false }
    swap(&slot, &accumulated)
    return true
  }

  /// The input in progress was folded into `slot`, moved back here: the next one may start. `false` if the run has
  /// ended (the value stays in `slot`, for the caller to let go of).
  mutating func folded(_ slot: inout Accumulated?) -> Bool {
    guard case .running(let held, let index, _, let interrupted) = phase else { return false }
    swap(&slot, &accumulated)
    phase = .running(held, index: index + 1, child: nil, interrupted: interrupted)
    return true
  }

  /// The input in progress failed: what the run held, to deliver the failure with; `nil` if the run has ended.
  mutating func failed() -> Held? {
    guard case .running(let held, _, _, _) = phase else { return nil }
    phase = .ended
    accumulated = nil
    return held
  }

  /// The run was stopped: cancelled, it ends; interrupted, it runs on with every input interrupted.
  mutating func stop(_ mode: _StopMode) -> Stop {
    guard case .running(let held, let index, let child, _) = phase else { return .none }
    switch mode {
    case .cancel:
      phase = .ended
      accumulated = nil
      return .cancel(child, ended: held)
    case .interrupt:
      phase = .running(held, index: index, child: child, interrupted: true)
      return .interrupt(child)
    }
  }

  /// Ends the run, whatever its phase: what it held, if it had not ended. For the engine's `deinit`.
  mutating func end() -> Held? {
    guard case .running(let held, _, _, _) = phase else { return nil }
    phase = .ended
    accumulated = nil
    return held
  }
}

/// One run of `Promise.reduce`: runs the inputs one after another, folding each value into the accumulated one.
/// Only the input in progress is alive; a stopped run stops it the same way, and every input started afterwards is
/// stopped at once (so a cancelled run starts nothing that delivers). Each input's completion handler holds this
/// engine and the input's index, nothing more.
final class ReduceLoop<T, E: Error, Accumulated>: @unchecked Sendable {  // its mutable state is behind `lock`
  typealias Machine = ReduceStateMachine<T, E, Accumulated>

  private let lock = _StateLock()  // guards `state`, kept beside it: see `_StateLock`
  /// Only touched inside `lock.withLock`, or alone in `deinit`.
  @exclusivity(unchecked) private var state: Machine
  /// The caller's function, read without the lock: it never changes (the run's `held` has it too).
  private let update: @Sendable (inout Accumulated, T) -> Void
  /// What the run's stop handler holds: this loop weakly, and the input running now.
  private var stopper: _OneChildStopper<ReduceLoop>!

  private init(_ held: Machine.Held, initial: Accumulated) {
    update = held.update
    state = Machine(held, initial: initial)
  }

  deinit {
    // A run that never ended (nobody cancelled it, and an input's task let go of its handler): its completion holds
    // the run of an enclosing operator, so nested runs are a chain that would otherwise be freed recursively.
    var held = state.end()
    releaseInBoundedStack(&held)
  }

  /// Starts a `reduce` run for the operator task of `run`: the first input, or the delivery of `initial` when
  /// there is none.
  static func start(
    _ inputs: [Promise<T, E>], initial: Accumulated, update: @escaping @Sendable (inout Accumulated, T) -> Void,
    run: _TaskRun, completion: @escaping @Sendable (Result<Accumulated, E>) -> Void
  ) {
    let loop = ReduceLoop(Machine.Held(inputs: inputs, update: update, completion: completion), initial: initial)
    let stopper = _OneChildStopper(loop) { loop, mode in loop.stop(mode) }  // see `_OneChildStopper`
    loop.stopper = stopper
    run.onStop { mode in stopper.stop(mode) }
    loop.step()
  }

  /// Starts the next input, or delivers.
  private func step() {
    switch lock.withLock({ state.next() }) {
    case .none:
      return
    case .deliver(let accumulated, let ended):
      ended.completion(.success(accumulated))
      Self.release(ended)
    case .run(let input, let child, let interrupted):
      if interrupted { child._interrupt() }
      stopper.started(child)
      input._run(under: child) { [self] result in received(result) }
    }
  }

  private func received(_ result: Result<T, E>) {
    switch result {
    case .failure(let error):
      guard let ended = lock.withLock({ state.failed() }) else { return }
      ended.completion(.failure(error))
      Self.release(ended)
    case .success(let value):
      var folding: Accumulated?
      guard lock.withLock({ state.folding(into: &folding) }) else { return }
      update(&folding!, value)  // in place: `folding` holds the only reference the run has
      guard lock.withLock({ state.folded(&folding) }) else { return }
      // A synchronous input re-enters `step` from inside the last one: go through the trampoline, as every
      // run-time join does, so any number of inputs runs in bounded stack.
      _hop({ step() }, { { self.step() } })
    }
  }

  fileprivate func stop(_ mode: _StopMode) {
    switch lock.withLock({ state.stop(mode) }) {
    case .none:
      break
    case .interrupt(let child):
      child?._interrupt()
    case .cancel(let child, let ended):
      child?.cancel()
      Self.release(ended)
    }
  }

  /// Lets go of what an ended run held, in bounded stack: its completion holds the run of an enclosing operator.
  private static func release(_ ended: Machine.Held) {
    var ended: Machine.Held? = ended
    releaseInBoundedStack(&ended)
  }
}
