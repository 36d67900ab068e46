import Synchronization

/// The work behind `Promise.shared()`: the promise to run once, and the future its first run completes.
///
/// The first caller of `future()` wins the one-shot `started` flag and runs the promise; it then lets go of the
/// promise, so the chain is freed once it has run.
final class _SharedWork<T, E: Error>: @unchecked Sendable {
  private var promise: Promise<T, E>?
  private let started = Atomic<Bool>(false)
  private let result = Future<T, E>(_pending: ())

  init(_ promise: Promise<T, E>) {
    self.promise = promise
  }

  /// The shared future; starts the work on the first call.
  func future() -> Future<T, E> {
    if !started.load(ordering: .acquiring), !started.exchange(true, ordering: .acquiringAndReleasing) {
      guard let promise = promise.take() else { fatalError("Internal inconsistency: shared work started twice") }
      promise._run(completing: result)
    }
    return result
  }
}
