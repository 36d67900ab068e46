import Synchronization

extension Promise where T: Sendable {
  /// One run, awaited. With `cancelled`, task cancellation cancels the run and ends the `await` with it at once;
  /// without, it interrupts the run cooperatively and the `await` ends with what the run delivers.
  func awaitResult(endingWith cancelled: E?) async -> Result<T, E> {
    let bridge = AwaitBridge<T, E>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        bridge.start(self, continuation, cancelled: cancelled)
      }
    } onCancel: {
      bridge.taskCancelled(endingWith: cancelled)
    }
  }
}

/// Joins one run to one continuation, which it resumes exactly once: with the run's result, or — when the
/// awaiting task is cancelled and the error type can say so — with that error.
final class AwaitBridge<T: Sendable, E: Error>: Sendable {
  private let handle = RunHandle()
  /// Guards `continuation`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it: this engine runs unspecialized
  /// in the caller's module, where a lock whose layout depends on the generic state would look its type up in the
  /// runtime's metadata cache at every transition (see `_Gather`).
  private let lock = _Lock(())
  /// Only read or written inside `lock.withLock`.
  @exclusivity(unchecked) nonisolated(unsafe) private var continuation: CheckedContinuation<Result<T, E>, Never>?

  /// Stores the continuation, then starts the run (unless the task was cancelled first and `cancelled` can say
  /// so).
  func start(_ promise: Promise<T, E>, _ continuation: CheckedContinuation<Result<T, E>, Never>, cancelled: E?) {
    lock.withLock { _ in self.continuation = continuation }
    if let cancelled, handle.isCancelled {
      resume(.failure(cancelled))
      return
    }
    promise._run(under: handle) { [self] result in resume(result) }
  }

  /// The awaiting task was cancelled (before or after `start`).
  func taskCancelled(endingWith cancelled: E?) {
    guard let cancelled else {
      handle._interrupt()
      return
    }
    handle.cancel()
    // `cancel()` and delivery exclude each other: once the run is cancelled it will never deliver, so this is
    // the one resume. (Before `start` there is no continuation yet; `start` then resumes.)
    if handle.isCancelled { resume(.failure(cancelled)) }
  }

  private func resume(_ result: Result<T, E>) {
    lock.withLock { _ in continuation.take() }?.resume(returning: result)
  }
}
