import LazyPromise
import Testing

/// Runs `promise` once and returns what it delivered so far (nothing yet, or the one result).
///
/// ```swift
/// let outcome = Outcome(Promise<Int, TestError>(value: 1))
/// #expect(outcome.result == .success(1))
/// outcome.handle.cancel()  // the run's handle
/// ```
public final class Outcome<T: Sendable, E: Error>: Sendable {
  private let results = Recorder<Result<T, E>>()
  /// The handle of the run.
  public let handle: RunHandle

  /// Runs `promise` now.
  public init(_ promise: Promise<T, E>) {
    let results = self.results
    handle = promise.run { results.append($0) }
  }

  /// The one result delivered, or `nil` while none has been (a second one fails the test).
  public var result: Result<T, E>? {
    let all = results.all
    #expect(all.count <= 1, "a run delivered more than once")
    return all.first
  }
}

/// Awaits the result of a future (a future's `result` property is `nil` while it is pending; this waits).
///
/// ```swift
/// let (future, resolver) = Future<Int, TestError>.makePending()
/// DispatchQueue.global().async { resolver.resolve(1) }
/// #expect(await value(of: future) == .success(1))
/// ```
public func value<T: Sendable, E>(of future: Future<T, E>) async -> Result<T, E> {
  await withCheckedContinuation { continuation in
    future.observe { continuation.resume(returning: $0) }
  }
}
