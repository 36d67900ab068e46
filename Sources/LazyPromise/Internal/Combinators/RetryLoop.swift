/// The state of one `retry` run: which attempt is running or what it waits for, and how many retries were taken.
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do; the engine does
/// it with the lock released (the caller's predicate, the scheduler, the completion, child runs). `phase` goes
/// `.attempting(child)` → `.deciding` (the predicate runs, no lock held) → `.attempting` or `.waiting(timer)`, and
/// ends `.stopped` (cancelled or interrupted) or `.finished`. `end` hands `held` (the upstream, the predicate, the
/// completion) to the engine when the run delivers or is cancelled, so a completion handler a task keeps holds the
/// engine alone (contract 6.7). An impossible event traps with the phase; timer events tolerate any phase, since a
/// scheduler may run a cancelled timer's work.
struct RetryStateMachine<E: Error, Held> {
  /// What the engine does after an attempt failed.
  enum Failed: Equatable {
    /// Ask the caller's predicate, telling it how many retries are left.
    case ask(remaining: Int)
    /// Deliver the failure: no retry is left, or the run was stopped.
    case deliver
  }

  /// What the engine does after the predicate took a retry that starts at once.
  enum RetryNow {
    /// Start the retry under this handle (through the trampoline).
    case attempt(RunHandle)
    /// Deliver the failure: the run was stopped while the predicate ran.
    case deliver
  }

  /// What the engine does after the predicate took a retry that starts after a wait.
  enum RetryAfterWait: Equatable {
    /// Wait before retry number `retry` (1 for the first), then start it.
    case wait(retry: Int)
    /// Deliver the failure: the run was stopped while the predicate ran.
    case deliver
  }

  /// What the engine does with a timer it has just armed.
  enum Armed: Equatable {
    /// Nothing: the run waits for it.
    case keep
    /// Cancel it: the run was stopped, or the timer fired, before it was stored.
    case cancel
  }

  /// What the engine does after the run was stopped.
  enum Stop {
    case none
    /// Stop the attempt in progress (or about to start) the same way.
    case stopAttempt(RunHandle)
    /// Stop the wait: cancel its timer, if armed, and deliver `error` if there is one (the run was interrupted).
    case stopWait(timer: ScheduledWork?, deliver: E?)
  }

  /// How many retries the run may take.
  let retries: Int
  /// How many it has taken.
  private(set) var retriesDone = 0
  private(set) var phase: RetryPhase
  /// The error that caused the wait, in `.waiting` (`nil` in every other phase): delivered if the wait is
  /// interrupted. Kept beside the phase so that the phase is not generic: the library's generic code runs
  /// unspecialized, and each copy or switch of a phase generic over `E` goes through its value witnesses (some
  /// hundreds of instructions per retry).
  private(set) var waitingError: E?
  /// What the run holds until it ends; `nil` once `end` took it.
  private(set) var held: Held?

  /// A run of up to `retries` retries whose first attempt runs under `first`, holding `held` until it ends.
  init(retries: Int, first: RunHandle, held: Held) {
    self.retries = retries
    phase = .attempting(first)
    self.held = held
  }

  /// The run ends: it delivers (a success, a failure not retried, an interrupted wait's error) or was cancelled.
  /// Returns what it held, for the engine to deliver with and let go of; `nil` if it had already ended, when
  /// there is nothing to deliver.
  mutating func end() -> Held? {
    // A stopped run stays `.stopped`: an attempt failing, or a retry taken, as it was cancelled still finds it so
    // and is told to deliver, which then delivers nothing.
    if case .stopped = phase {} else { phase = .finished }
    waitingError = nil
    return held.take()
  }

  /// The attempt in progress failed.
  mutating func failed() -> Failed {
    switch phase {
    case .attempting:
      guard retriesDone < retries else {
        phase = .finished
        return .deliver
      }
      phase = .deciding
      return .ask(remaining: retries - retriesDone)
    case .stopped:
      return .deliver
    case .deciding, .waiting, .finished:
      preconditionFailure("retry: an attempt failed in phase \(phase.name)")
    }
  }

  /// The predicate took a retry that starts at once: under a new handle, made here so that a stop finds it.
  mutating func retryNow() -> RetryNow {
    switch phase {
    case .deciding:
      retriesDone += 1
      let child = RunHandle()
      phase = .attempting(child)
      return .attempt(child)
    case .stopped:
      return .deliver
    case .attempting, .waiting, .finished:
      preconditionFailure("retry: a retry was taken in phase \(phase.name)")
    }
  }

  /// The predicate took a retry that starts after a wait; `error` is delivered if the wait is interrupted.
  mutating func retryAfterWait(_ error: E) -> RetryAfterWait {
    switch phase {
    case .deciding:
      retriesDone += 1
      phase = .waiting(timer: nil)
      waitingError = error
      return .wait(retry: retriesDone)
    case .stopped:
      return .deliver
    case .attempting, .waiting, .finished:
      preconditionFailure("retry: a retry after a wait was taken in phase \(phase.name)")
    }
  }

  /// The engine armed `timer` for retry number `retry`.
  mutating func armed(_ timer: ScheduledWork, forRetry retry: Int) -> Armed {
    guard case .waiting(timer: nil) = phase, retry == retriesDone else { return .cancel }
    phase = .waiting(timer: timer)
    return .keep
  }

  /// The wait's timer fired: the retry starts under the handle returned, or, if the run is no longer waiting
  /// (it was stopped), nothing starts.
  mutating func timerFired() -> RunHandle? {
    guard case .waiting = phase else { return nil }
    let child = RunHandle()
    phase = .attempting(child)
    waitingError = nil
    return child
  }

  /// The trampoline deferred the start of the retry `retryNow` returned: the handle it runs under (stopped since,
  /// if the run was).
  func deferredAttempt() -> RunHandle {
    switch phase {
    case .attempting(let child), .stopped(_, attempt: let child?):
      return child
    case .deciding, .waiting, .stopped, .finished:
      preconditionFailure("retry: a deferred attempt started in phase \(phase.name)")
    }
  }

  /// The run was stopped: no attempt starts any more.
  mutating func stop(_ mode: _StopMode) -> Stop {
    switch phase {
    case .attempting(let child):
      phase = .stopped(mode, attempt: child)
      return .stopAttempt(child)
    case .deciding:
      phase = .stopped(mode, attempt: nil)
      return .none
    case .waiting(let timer):
      phase = .stopped(mode, attempt: nil)
      let error = waitingError.take()
      return .stopWait(timer: timer, deliver: mode == .interrupt ? error : nil)
    case .stopped, .finished:
      return .none
    }
  }
}

/// Where a `retry` run is (`RetryStateMachine`); see there.
enum RetryPhase {
  case attempting(RunHandle)
  case deciding
  case waiting(timer: ScheduledWork?)
  case stopped(_StopMode, attempt: RunHandle?)
  case finished
}

extension RetryPhase {
  /// The phase's name, for trap messages.
  var name: String {
    switch self {
    case .attempting: ".attempting"
    case .deciding: ".deciding"
    case .waiting: ".waiting"
    case .stopped: ".stopped"
    case .finished: ".finished"
    }
  }
}

/// One `retry` run: runs the attempts one after another, asks the caller's predicate after each failure, and waits
/// between attempts when there is a backoff. Each event takes the lock once: an attempt failing, the predicate
/// taking a retry, a timer armed, a timer fired, the run stopped, the run ending.
final class RetryLoop<T, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  /// What a run holds until it ends.
  struct Held {
    let upstream: Promise<T, E>
    let backoff: (RetryBackoff, any PromiseScheduler)?
    let shouldRetry: @Sendable (E, Int) -> Bool
    let completion: Promise<T, E>.Completion
  }
  private let lock = _StateLock()  // guards `state`, kept beside it: see `_StateLock`
  /// Only touched inside `lock.withLock`, or alone in `deinit`.
  @exclusivity(unchecked) private var state: RetryStateMachine<E, Held>
  /// What the run's stop handler holds: this loop weakly, and the attempt running now.
  private var stopper: _OneChildStopper<RetryLoop>!

  private init(retries: Int, first: RunHandle, held: Held) {
    state = RetryStateMachine(retries: retries, first: first, held: held)
  }

  deinit {
    // A run that never ended (nobody cancelled it, and an attempt's task let go of its handler): its completion
    // holds the run of an enclosing operator, so nested runs are a chain that would otherwise be freed recursively.
    var held = state.end()
    releaseInBoundedStack(&held)
  }

  /// Starts a `retry` run of `upstream` for the operator task of `run`: the first attempt, now.
  static func start(
    _ upstream: Promise<T, E>, retries: Int, backoff: (RetryBackoff, any PromiseScheduler)?,
    shouldRetry: @escaping @Sendable (E, Int) -> Bool, run: _TaskRun, completion: @escaping Promise<T, E>.Completion
  ) {
    let first = RunHandle()
    let held = Held(upstream: upstream, backoff: backoff, shouldRetry: shouldRetry, completion: completion)
    let loop = RetryLoop(retries: retries, first: first, held: held)
    // The attempt's task (or the backoff's timer) holds the loop while it waits; see `_OneChildStopper`.
    let stopper = _OneChildStopper(loop) { loop, mode in loop.stop(mode) }
    loop.stopper = stopper
    run.onStop { mode in stopper.stop(mode) }
    loop.attempt(first, of: upstream)
  }

  /// Starts an attempt under `child`, unless the run has ended.
  private func attempt(_ child: RunHandle) {
    guard let upstream = lock.withLock({ state.held?.upstream }) else { return }
    attempt(child, of: upstream)
  }

  private func attempt(_ child: RunHandle, of upstream: Promise<T, E>) {
    stopper.started(child)
    upstream._run(under: child) { [self] result in finish(result) }
  }

  /// Ends the run with `result`: delivers it, unless the run has already ended, and lets go of what it held.
  private func deliver(_ result: Result<T, E>) {
    guard let held = lock.withLock({ state.end() }) else { return }
    held.completion(result)
    Self.release(held)
  }

  /// Lets go of what an ended run held, in bounded stack: its completion holds the run of an enclosing operator.
  private static func release(_ held: Held) {
    var held: Held? = held
    releaseInBoundedStack(&held)
  }

  private func finish(_ result: Result<T, E>) {
    guard case .failure(let error) = result else { return deliver(result) }
    let (failed, held) = lock.withLock { (state.failed(), state.held) }
    guard let held else { return }  // cancelled as it failed
    switch failed {
    case .deliver:
      deliver(result)
    case .ask(let remaining):
      guard held.shouldRetry(error, remaining) else { return deliver(result) }
      retry(after: error, backoff: held.backoff)
    }
  }

  private func retry(after error: E, backoff: (RetryBackoff, any PromiseScheduler)?) {
    guard let (backoff, scheduler) = backoff else {
      switch lock.withLock({ state.retryNow() }) {
      case .attempt(let child):
        // A synchronous failure retried at once re-enters `attempt` from inside the last one: go through the
        // trampoline, as every run-time join does, so a long streak of failures runs in bounded stack. A deferred
        // start looks its handle up again, so that the deferred closure holds the loop alone (no allocation).
        return _hop({ attempt(child) }, { { self.attempt(self.lock.withLock { self.state.deferredAttempt() }) } })
      case .deliver:
        return deliver(.failure(error))
      }
    }
    switch lock.withLock({ state.retryAfterWait(error) }) {
    case .wait(let retry):
      let timer = scheduler.enqueue(after: backoff.delay(beforeRetry: retry)) { [self] in
        if let child = lock.withLock({ state.timerFired() }) { attempt(child) }
      }
      if lock.withLock({ state.armed(timer, forRetry: retry) }) == .cancel { timer.cancel() }
    case .deliver:
      deliver(.failure(error))
    }
  }

  fileprivate func stop(_ mode: _StopMode) {
    switch lock.withLock({ state.stop(mode) }) {
    case .none:
      break
    case .stopAttempt(let child):
      child.stop(mode)
    case .stopWait(let timer, let error):
      timer?.cancel()
      // Interrupted while waiting: finish early with the error that caused the wait.
      if let error { deliver(.failure(error)) }
    }
    // A cancelled run delivers nothing: let go of what it held.
    if mode == .cancel, let held = lock.withLock({ state.end() }) { Self.release(held) }
  }
}

extension Promise {
  /// The `retry` operators' one engine: up to `retries` more attempts while `shouldRetry` accepts the error and the
  /// retries left, at once or after `backoff` on its scheduler.
  func retrying(
    _ retries: Int, backoff: (RetryBackoff, any PromiseScheduler)?,
    shouldRetry: @escaping @Sendable (E, Int) -> Bool
  ) -> Promise<T, E> {
    operatorStage { upstream, run, completion in
      RetryLoop.start(
        upstream, retries: max(retries, 0), backoff: backoff, shouldRetry: shouldRetry, run: run,
        completion: completion)
    }
  }
}
