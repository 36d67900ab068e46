/// Lets one side of a test wait, without sleeping, until the other side says so.
///
/// ```swift
/// let started = Signal()
/// let task = Task { started.fire(); ... }
/// await started.wait()  // the task has started
/// ```
public final class Signal: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  /// A signal not yet fired.
  public init() { (stream, continuation) = AsyncStream.makeStream() }

  /// Says so: one `wait()`, now or later, returns for each `fire()`.
  public func fire() { continuation.yield() }

  /// Waits for the next `fire()` not yet waited for.
  public func wait() async {
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next()
  }
}
