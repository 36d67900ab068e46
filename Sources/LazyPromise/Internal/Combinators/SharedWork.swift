import Synchronization

/// The work behind `Promise.shared()`: one run of the promise for all the runs of the shared one, counted so that
/// the work is cancelled when the last run waiting for it is (as Combine's `share` cancels on the last
/// unsubscription).
///
/// A value-type state machine under a lock: every transition returns what the caller must do — start the work,
/// deliver, cancel the work — and the caller does it once the lock is released, so no completion, cancel handler
/// or task of the work ever runs under it. The runs waiting for the work are a table a cancelled run leaves (so
/// what a cancelled run holds is released at once, contract 20.4); its size is the count of live runs.
final class SharedWork<T, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  private enum Phase {
    /// Not running: never run, or every run waiting for the last attempt was cancelled.
    case idle(Promise<T, E>)
    /// Running under `handle`; `attempt` tells a late report of an earlier, cancelled attempt apart.
    case running(Promise<T, E>, handle: RunHandle, attempt: Int)
    /// Delivered: the result every run receives from now on. The promise is let go, so its chain is freed.
    case done(Result<T, E>)
  }

  private struct State {
    var phase: Phase
    var attempts = 0
    var nextKey = 0
    /// The runs waiting for the running attempt, by the order they began in.
    var waiting: [Int: Promise<T, E>.Completion] = [:]

    /// Adds a waiting run; returns its key.
    mutating func enter(_ completion: @escaping Promise<T, E>.Completion) -> Int {
      defer { nextKey += 1 }
      waiting[nextKey] = completion
      return nextKey
    }
  }

  /// What a run of the shared promise does once the lock is released.
  private enum Join {
    case deliver(Result<T, E>)
    case wait(key: Int)
    case start(Promise<T, E>, RunHandle, attempt: Int, key: Int)
  }

  /// Guards `state`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it: this engine runs unspecialized
  /// in the caller's module, where a lock whose layout depends on the generic state would look its type up in the
  /// runtime's metadata cache at every transition (see `_Gather`).
  private let lock = _Lock(())
  /// Only read or written inside `lock.withLock`.
  @exclusivity(unchecked) private var state: State

  init(_ promise: Promise<T, E>) {
    state = State(phase: .idle(promise))
  }

  /// One run of the shared promise: starts the work if it is not running, and waits for it.
  func run(_ run: _TaskRun, completion: @escaping Promise<T, E>.Completion) {
    let join = lock.withLock { _ -> Join in
      switch state.phase {
      case .done(let result):
        return .deliver(result)
      case .running:
        return .wait(key: state.enter(completion))
      case .idle(let promise):
        state.attempts += 1
        let handle = RunHandle()
        state.phase = .running(promise, handle: handle, attempt: state.attempts)
        return .start(promise, handle, attempt: state.attempts, key: state.enter(completion))
      }
    }
    switch join {
    case .deliver(let result):
      completion(result)
    case .wait(let key):
      leave(key, when: run)
    case .start(let promise, let handle, let attempt, let key):
      promise._run(under: handle) { [self] result in finish(attempt, with: result) }
      leave(key, when: run)
    }
  }

  /// Takes the run waiting under `key` out of the table when it is cancelled (an interrupted run stays: it waits
  /// for the result, contract 9.3); cancels the work if it was the last.
  private func leave(_ key: Int, when run: _TaskRun) {
    run.onStop { [self] mode in
      guard mode == .cancel else { return }
      let (removed, orphaned) = lock.withLock { _ -> (Promise<T, E>.Completion?, RunHandle?) in
        guard let removed = state.waiting.removeValue(forKey: key) else { return (nil, nil) }
        guard state.waiting.isEmpty, case .running(let promise, let handle, _) = state.phase else {
          return (removed, nil)
        }
        state.phase = .idle(promise)  // the next run starts the work again
        return (removed, handle)
      }
      withExtendedLifetime(removed) {}  // released here, with the lock no longer held
      orphaned?.cancel()
    }
  }

  /// Keeps attempt `attempt`'s result and delivers it to every waiting run, in the order they began.
  private func finish(_ attempt: Int, with result: Result<T, E>) {
    let waiting = lock.withLock { _ -> [Int: Promise<T, E>.Completion] in
      // The result of an attempt whose runs were all cancelled is not kept: a later run starts the work anew.
      guard case .running(_, handle: _, attempt: attempt) = state.phase else { return [:] }
      state.phase = .done(result)
      defer { state.waiting = [:] }
      return state.waiting
    }
    for key in waiting.keys.sorted() { waiting[key]?(result) }
  }
}
