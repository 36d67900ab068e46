import Synchronization

/// The state of `Promise.shared()`'s work: whether the promise runs, for which runs of the shared promise, or what
/// it delivered.
///
/// A value type whose transitions, called under the engine's lock, return what the engine must do — start the work,
/// deliver, cancel the work, let go of a run's completion — and the engine does it with the lock released, so no
/// completion, cancel handler or task of the work ever runs under it, and nothing is freed under it. `phase`:
///
/// - `.idle(promise)`: not running — never run, or every run waiting for the last attempt was cancelled. A run that
///   joins starts an attempt (`.running`).
/// - `.running(promise, handle, attempt)`: an attempt runs under `handle`; `attempt` is what its completion handler
///   reports through, told apart from an earlier, cancelled attempt's. A run that joins waits; the last waiting
///   run cancelled stops the attempt (back to `.idle`); the attempt's result ends it (`.done`).
/// - `.done(result)`: the result every run receives from now on. The promise is let go, so its chain is freed.
///
/// The runs waiting for the running attempt are a table a cancelled run leaves, so what a cancelled run holds is
/// released at once (contract 20.4); its size is the count of live runs.
struct SharedStateMachine<T, E: Error, Attempt: AnyObject> {
  enum Phase {
    case idle(Promise<T, E>)
    case running(Promise<T, E>, handle: RunHandle, attempt: Attempt)
    case done(Result<T, E>)
  }

  /// What a run of the shared promise does once it has joined.
  enum Join {
    /// Deliver the result the work already delivered.
    case deliver(Result<T, E>)
    /// Wait for the running attempt, leaving under `key` if cancelled.
    case wait(key: Int)
    /// Start an attempt: run `promise` under `handle`, reporting through `attempt`; then wait as for `.wait`.
    case start(Promise<T, E>, handle: RunHandle, attempt: Attempt, key: Int)
  }

  /// What the engine does after a waiting run was cancelled.
  enum Leave {
    /// Nothing: the run was no longer waiting.
    case none
    /// Let go of the run's completion.
    case release(Promise<T, E>.Completion)
    /// Let go of the run's completion; it was the last run waiting, so cancel the attempt's `handle` and cut its
    /// `attempt` off from the engine, so that its task, if it keeps its completion handler, holds nothing of it.
    case stop(Promise<T, E>.Completion, handle: RunHandle, attempt: Attempt)
  }

  private(set) var phase: Phase
  private var nextKey = 0
  /// The runs waiting for the running attempt, by the order they began in.
  private(set) var waiting: [Int: Promise<T, E>.Completion] = [:]

  /// Work that runs `promise` once it is joined.
  init(_ promise: Promise<T, E>) {
    phase = .idle(promise)
  }

  /// A run of the shared promise joins with `completion`; `makeAttempt` makes what a new attempt reports through.
  mutating func join(_ completion: @escaping Promise<T, E>.Completion, makeAttempt: () -> Attempt) -> Join {
    switch phase {
    case .done(let result):
      return .deliver(result)
    case .running:
      return .wait(key: enter(completion))
    case .idle(let promise):
      let handle = RunHandle()
      let attempt = makeAttempt()
      phase = .running(promise, handle: handle, attempt: attempt)
      return .start(promise, handle: handle, attempt: attempt, key: enter(completion))
    }
  }

  /// The run waiting under `key` was cancelled.
  mutating func leave(_ key: Int) -> Leave {
    guard let removed = waiting.removeValue(forKey: key) else { return .none }
    guard waiting.isEmpty, case .running(let promise, let handle, let attempt) = phase else {
      return .release(removed)
    }
    phase = .idle(promise)  // the next run starts the work again
    return .stop(removed, handle: handle, attempt: attempt)
  }

  /// `attempt` delivered `result`: the runs to deliver it to, in the order they began; none if the attempt was
  /// cancelled (its result is not kept: a later run starts the work anew).
  mutating func finished(_ attempt: Attempt, with result: Result<T, E>) -> [Promise<T, E>.Completion] {
    guard case .running(_, _, let running) = phase, running === attempt else { return [] }
    phase = .done(result)
    defer { waiting = [:] }
    return waiting.keys.sorted().compactMap { waiting[$0] }
  }

  private mutating func enter(_ completion: @escaping Promise<T, E>.Completion) -> Int {
    defer { nextKey += 1 }
    waiting[nextKey] = completion
    return nextKey
  }
}

/// The work behind `Promise.shared()`: one run of the promise for all the runs of the shared one, counted so that
/// the work is cancelled when the last run waiting for it is (as Combine's `share` cancels on the last
/// unsubscription). Its state is `SharedStateMachine`.
final class SharedWork<T, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  /// What an attempt's completion handler holds: the work, until the attempt is cancelled or has reported. A task
  /// that keeps the handler then holds this small object alone, which ignores a late call (contract 6.7).
  final class Attempt: Sendable {
    let work: _Lock<SharedWork?>

    init(_ work: SharedWork) {
      self.work = _Lock(work)
    }

    /// Reports the attempt's result to the work, unless the attempt was cut off; then cuts it off.
    func report(_ result: Result<T, E>) {
      guard let work = work.withLock({ $0 }) else { return }
      work.finish(self, with: result)
      cutOff()
    }

    /// Cuts the attempt off from the work: it was cancelled, or has reported.
    func cutOff() {
      let work = work.withLock { $0.take() }
      withExtendedLifetime(work) {}  // released here, with the lock no longer held
    }
  }

  typealias Machine = SharedStateMachine<T, E, Attempt>

  private let lock = _StateLock()  // guards `state`, kept beside it: see `_StateLock`
  /// Only touched inside `lock.withLock`.
  @exclusivity(unchecked) private var state: Machine

  init(_ promise: Promise<T, E>) {
    state = Machine(promise)
  }

  /// One run of the shared promise: starts the work if it is not running, and waits for it.
  func run(_ run: _TaskRun, completion: @escaping Promise<T, E>.Completion) {
    switch lock.withLock({ state.join(completion, makeAttempt: { Attempt(self) }) }) {
    case .deliver(let result):
      completion(result)
    case .wait(let key):
      leave(key, when: run)
    case .start(let promise, let handle, let attempt, let key):
      // Counted before the work starts: a run cancelled while the work is still starting (its task moved a clock,
      // resolved something its own run waits on) cancels the work at once, not after the start returns.
      leave(key, when: run)
      promise._run(under: handle) { result in attempt.report(result) }
    }
  }

  /// Takes the run waiting under `key` out of the table when it is cancelled (an interrupted run stays: it waits
  /// for the result, contract 9.3); cancels the work if it was the last.
  private func leave(_ key: Int, when run: _TaskRun) {
    run.onStop { [self] mode in
      guard mode == .cancel else { return }
      switch lock.withLock({ state.leave(key) }) {
      case .none:
        break
      case .release(let removed):
        withExtendedLifetime(removed) {}  // released here, with the lock no longer held
      case .stop(let removed, let handle, let attempt):
        withExtendedLifetime(removed) {}
        attempt.cutOff()
        handle.cancel()
      }
    }
  }

  /// Keeps `attempt`'s result and delivers it to every waiting run, in the order they began.
  private func finish(_ attempt: Attempt, with result: Result<T, E>) {
    _forEachInOrder(lock.withLock({ state.finished(attempt, with: result) })[...]) { $0(result) }
  }
}
