import Synchronization

/// The state of one `retry` operator task: the attempt in progress or the wait before the next, and how the run
/// was stopped. Callbacks (the caller's predicate, the completion, child runs) are called with no lock held.
final class _RetryLoop<T, E: Error>: @unchecked Sendable {
  private struct State {
    var retriesDone = 0
    /// The attempt in progress (or the last one, while waiting).
    var child: RunHandle?
    /// While waiting before a retry: the error that caused it, and then the timer.
    var waitingError: E?
    var timer: ScheduledWork?
    var stop: _StopMode?
  }

  private let upstream: Promise<T, E>
  private let retries: Int
  private let backoff: (RetryBackoff, any PromiseScheduler)?
  private let shouldRetry: @Sendable (E, Int) -> Bool
  private let run: _TaskRun
  private let completion: Promise<T, E>.Completion
  private let state: Mutex<State>

  init(
    upstream: Promise<T, E>, retries: Int, backoff: (RetryBackoff, any PromiseScheduler)?,
    shouldRetry: @escaping @Sendable (E, Int) -> Bool, run: _TaskRun, completion: @escaping Promise<T, E>.Completion
  ) {
    self.upstream = upstream
    self.retries = retries
    self.backoff = backoff
    self.shouldRetry = shouldRetry
    self.run = run
    self.completion = completion
    state = Mutex(State())
  }

  /// Starts the first attempt.
  func start() {
    run.onStop { [self] mode in stop(mode) }
    attempt()
  }

  private func attempt() {
    let child = RunHandle()
    let stop = state.withLock { state in
      state.child = child
      return state.stop
    }
    if let stop { child._stop(stop) }  // stopped between the failure and this attempt
    upstream._run(under: child) { [self] result in finish(result) }
  }

  private func finish(_ result: Result<T, E>) {
    guard case .failure(let error) = result,
      let remaining = state.withLock({ $0.stop == nil && $0.retriesDone < retries ? retries - $0.retriesDone : nil }),
      shouldRetry(error, remaining)
    else { return completion(result) }
    // Take the retry, unless the run was stopped while the predicate ran.
    let retry: Int? = state.withLock { state in
      guard state.stop == nil else { return nil }
      state.retriesDone += 1
      if backoff != nil { state.waitingError = error }
      return state.retriesDone
    }
    guard let retry else { return completion(result) }
    guard let (backoff, scheduler) = backoff else {
      // A synchronous failure retried at once re-enters `attempt` from inside the last one: go through the
      // trampoline, as every run-time join does, so a long streak of failures runs in bounded stack.
      return _hop({ attempt() }, { { self.attempt() } })
    }
    let timer = scheduler.enqueue(after: backoff.delay(beforeRetry: retry)) { [self] in
      let due = state.withLock { state in
        defer { state.timer = nil }
        return state.waitingError.take() != nil
      }
      if due { attempt() }
    }
    let stillWaiting = state.withLock { state in
      guard state.waitingError != nil else { return false }
      state.timer = timer
      return true
    }
    if !stillWaiting { timer.cancel() }  // stopped (or fired) before the timer was stored
  }

  private func stop(_ mode: _StopMode) {
    let (child, timer, waitingError) = state.withLock { state in
      state.stop = mode
      defer { state.timer = nil }
      return (state.child, state.timer, state.waitingError.take())
    }
    child?._stop(mode)
    timer?.cancel()
    // Interrupted while waiting: finish early with the error that caused the wait.
    if mode == .interrupt, let waitingError { completion(.failure(waitingError)) }
  }
}
