import Dispatch

// MARK: - Waiting

extension Promise {
  /// Waits `interval` after this stage's value arrives, then passes it on. A failure passes on at once.
  ///
  /// The wait starts when the value arrives, on each run; the value is then delivered on `scheduler`.
  /// Cancelling the run during the wait cancels the timer. A delay is a value stage, so like any other it is
  /// skipped when an earlier stage failed.
  ///
  /// ```swift
  /// // show the spinner only if the lookup takes more than 300 ms
  /// let showSpinner = Promise<Void, Never>(value: ()).delay(.milliseconds(300), on: DispatchQueue.main)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long to wait; zero or less hops to `scheduler` without waiting.
  ///   - scheduler: The clock to wait on and where the value is delivered; a ``VirtualScheduler`` in tests.
  ///     Defaults to `DispatchQueue.global()`.
  /// - Returns: A promise of the same value, delivered `interval` later.
  public func delay(
    _ interval: Duration, on scheduler: some PromiseScheduler = DispatchQueue.global()
  ) -> Promise<T, E> {
    operatorStage { upstream, run, completion in
      upstream._run(under: run.makeChild()) { result in
        guard case .success(let value) = result else { return completion(result) }
        let handoff = Unchecked(value)
        let once = Once()
        let timer = scheduler.enqueue(after: interval) {
          if once.claim() { completion(.success(handoff.value)) }
        }
        run.onStop { mode in
          guard once.claim() else { return }
          timer.cancel()
          // Cooperative cancellation asks the work to finish early: the value is ready, so deliver it now.
          if mode == .interrupt { completion(.success(handoff.value)) }
        }
      }
    }
  }

  // MARK: - Limiting time

  /// Fails with `error` if this promise has not delivered within `interval`, and cancels its work.
  ///
  /// The clock starts when the run reaches this stage (for the first stage, at `run`), and covers everything
  /// before it in the chain. If the work delivers first, the timer is cancelled and the result passes on
  /// unchanged. If the timer fires first, the work's run is cancelled — its pending task's cancel handlers run,
  /// e.g. cancelling a `URLSessionTask` — and `error` continues the chain (on `scheduler`), typed like any other
  /// failure: `flatMapError` can fall back, `retry` can try again.
  ///
  /// ```swift
  /// enum LookupError: Error { case timedOut, transport(HTTPError) }
  ///
  /// session.dataPromise(from: url)
  ///   .mapError(LookupError.transport)
  ///   .timeout(.seconds(5), on: DispatchQueue.global(), error: .timedOut)
  ///   .run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long the work may take.
  ///   - scheduler: The clock to time on; a ``VirtualScheduler`` in tests.
  ///     Defaults to `DispatchQueue.global()`.
  ///   - error: The error the chain fails with when time runs out — your own type, so it stays typed.
  /// - Returns: A promise with this one's result, or `error` when time ran out first.
  public func timeout(
    _ interval: Duration, on scheduler: some PromiseScheduler = DispatchQueue.global(), error: E
  ) -> Promise<T, E> {
    operatorStage { upstream, run, completion in
      let once = Once()
      let child = run.makeChild()
      let timer = scheduler.enqueue(after: interval) {
        guard once.claim() else { return }
        child.cancel()
        if _afterQueued({ completion(.failure(error)) }) { return }  // after the cancel handlers (contract 6.8)
        completion(.failure(error))
      }
      run.onStop { mode in
        // A cancelled run has no use for the timer. An interrupted one keeps it: the work should now finish
        // early, and the timeout still bounds the wait if it does not.
        if mode == .cancel, once.claim() { timer.cancel() }
      }
      upstream._run(under: child) { result in
        guard once.claim() else { return }
        timer.cancel()
        completion(result)
      }
    }
  }

  // MARK: - Trying again

  /// Runs this promise again when it fails, up to `retries` more times, while `shouldRetry` accepts the error.
  ///
  /// Each attempt runs the whole lazy chain before this stage again, from its first task — that is what a lazy
  /// promise is for. The next attempt starts at once, on the thread that delivered the failure. The run delivers
  /// the first value, or the last error. Cancelling the run cancels the attempt in progress, and no attempt
  /// starts after it.
  ///
  /// ```swift
  /// // `isTransient` is your own test of the error: HTTPError has none (Docs/Guides/Time.md defines one).
  /// session.dataPromise(from: url)
  ///   .retry(2) { error in error.isTransient }  // at most 3 requests
  ///   .run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - retries: How many more attempts after the first one, at most; `0` (or less) runs the work once.
  ///   - shouldRetry: Whether an error is worth another attempt; every error is, by default.
  /// - Returns: A promise of the first attempt's value that succeeded, or of the last error.
  public func retry(_ retries: Int, if shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true }) -> Promise<T, E> {
    retrying(retries, backoff: nil) { error, _ in shouldRetry(error) }
  }

  /// Runs this promise again when it fails, up to `retries` more times, while `shouldRetry` accepts the error and
  /// the number of retries still allowed.
  ///
  /// As ``retry(_:if:)-(_,(E)->Bool)``, with the count: `remaining` is how many more attempts may follow this
  /// failure (`retries` for the first failure, 1 for the last one that can be retried); the predicate is not
  /// asked once none remain.
  ///
  /// ```swift
  /// session.dataPromise(from: url)
  ///   .retry(5) { error, remaining in error.isTransient || remaining > 3 }  // any error twice, then transient ones
  ///   .run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - retries: How many more attempts after the first one, at most; `0` (or less) runs the work once.
  ///   - shouldRetry: Whether this error, with `remaining` retries left, is worth another attempt.
  /// - Returns: A promise of the first attempt's value that succeeded, or of the last error.
  public func retry(
    _ retries: Int, if shouldRetry: @escaping @Sendable (_ error: E, _ remaining: Int) -> Bool
  ) -> Promise<T, E> {
    retrying(retries, backoff: nil, shouldRetry: shouldRetry)
  }

  /// Runs this promise again when it fails, waiting between attempts: up to `retries` more times, while
  /// `shouldRetry` accepts the error.
  ///
  /// Each attempt runs the whole lazy chain before this stage again, from its first task. Before retry `n` (1 for
  /// the first retry) it waits `backoff.delay(beforeRetry: n)` on `scheduler`, and the attempt starts there.
  /// Cancelling the run cancels the attempt in progress or the wait, and no attempt starts after it.
  ///
  /// ```swift
  /// session.dataPromise(from: url)
  ///   .retry(4, backoff: .exponential(initial: .milliseconds(200)), on: DispatchQueue.global())
  ///   .run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - retries: How many more attempts after the first one, at most; `0` (or less) runs the work once.
  ///   - backoff: How long to wait before each retry.
  ///   - scheduler: The clock to wait on and where retries start; a ``VirtualScheduler`` in tests.
  ///     Defaults to `DispatchQueue.global()`.
  ///   - shouldRetry: Whether an error is worth another attempt; every error is, by default.
  /// - Returns: A promise of the first attempt's value that succeeded, or of the last error.
  public func retry(
    _ retries: Int, backoff: RetryBackoff, on scheduler: some PromiseScheduler = DispatchQueue.global(),
    if shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true }
  ) -> Promise<T, E> {
    retrying(retries, backoff: (backoff, scheduler)) { error, _ in shouldRetry(error) }
  }

  /// Runs this promise again when it fails, waiting between attempts, while `shouldRetry` accepts the error and the
  /// number of retries still allowed (`remaining`: `retries` for the first failure, 1 for the last retryable one).
  ///
  /// ```swift
  /// session.dataPromise(from: url)
  ///   .retry(4, backoff: .exponential(initial: .milliseconds(200))) { error, remaining in
  ///     error.isTransient || remaining > 2
  ///   }
  ///   .run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - retries: How many more attempts after the first one, at most; `0` (or less) runs the work once.
  ///   - backoff: How long to wait before each retry.
  ///   - scheduler: The clock to wait on and where retries start; a ``VirtualScheduler`` in tests.
  ///     Defaults to `DispatchQueue.global()`.
  ///   - shouldRetry: Whether this error, with `remaining` retries left, is worth another attempt.
  /// - Returns: A promise of the first attempt's value that succeeded, or of the last error.
  public func retry(
    _ retries: Int, backoff: RetryBackoff, on scheduler: some PromiseScheduler = DispatchQueue.global(),
    if shouldRetry: @escaping @Sendable (_ error: E, _ remaining: Int) -> Bool
  ) -> Promise<T, E> {
    retrying(retries, backoff: (backoff, scheduler), shouldRetry: shouldRetry)
  }
}

// MARK: - Promises that cannot fail

extension Promise where E == Never {
  /// Not available: a promise that cannot fail has no error to time out with.
  ///
  /// ```swift
  /// ticks.setFailureType(to: TickError.self).timeout(.seconds(1), on: queue, error: .tooSlow)  // instead
  /// ```
  @available(*, unavailable, message: "this promise cannot fail; use setFailureType(to:) first to give it an error")
  public func timeout<F: Error>(
    _ interval: Duration, on scheduler: some PromiseScheduler = DispatchQueue.global(), error: F
  ) -> Promise<T, F> {
    fatalError("unavailable")
  }
}
