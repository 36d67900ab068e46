import Dispatch

// MARK: - Blocking until a result arrives

extension Promise {
  /// Runs this promise and blocks the calling thread until its result arrives, or until `timeout` has passed.
  ///
  /// For scripts, command-line tools and tests that are not `async` (contract 13). Each call is a new run. The
  /// run starts on the calling thread, which then waits; a result that arrives in time is returned, typed. When
  /// `timeout` passes first, the run is cancelled (its pending task's cancel handlers run, 7.2) and `nil` is
  /// returned. In `async` code, `await promise.result` is the non-blocking form.
  ///
  /// ```swift
  /// switch lookup(id: "909253").wait(timeout: .seconds(10)) {
  /// case .success(let artist)?: print(artist.artistName)
  /// case .failure(let error)?: print("error:", error)
  /// case nil: print("timed out")
  /// }
  /// ```
  ///
  /// > Warning: The result must be delivered by another thread (or synchronously, inside `run`). Waiting on the
  /// > thread or serial queue the promise delivers on — `receive(on: DispatchQueue.main)` waited on from the main
  /// > thread — blocks until the timeout.
  ///
  /// - Parameter timeout: How long to wait at most; zero or less waits only for a result delivered synchronously.
  /// - Returns: The run's result, or `nil` if it did not arrive in time.
  @available(*, noasync, message: "blocks the thread; use 'await promise.result' in async code")
  public func wait(timeout: Duration) -> Result<T, E>? {
    let box = WaitBox<T, E>()
    let handle = _withOwnTrampoline { run { result in box.put(result) } }
    if box.wait(until: .now() + .nanoseconds(timeout.dispatchNanoseconds)) { return box.result }
    handle.cancel()
    // Either the cancel won (the run will never deliver) or the run delivered first (its result is on its way).
    guard handle.isDelivered else { return nil }
    box.wait()
    return box.result
  }
}
