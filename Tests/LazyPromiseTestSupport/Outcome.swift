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
