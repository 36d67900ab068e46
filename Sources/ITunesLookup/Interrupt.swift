import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C for the tool: while it watches, SIGINT runs an action instead of killing the process.
///
/// The action (cancelling the tool's task) runs on a global queue. The process's default reaction
/// to SIGINT is restored by ``stop()``.
final class InterruptWatch: Sendable {
  private let source: _UncheckedSignalSource

  /// Starts watching for SIGINT; `action` runs each time one arrives.
  init(_ action: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)  // a Dispatch source, not the default handler, now reacts to Ctrl-C
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: action)
    source.resume()
    self.source = _UncheckedSignalSource(source: source)
  }

  /// Stops watching, and lets SIGINT kill the process again.
  func stop() {
    source.source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}

/// A Dispatch signal source: thread-safe, but Dispatch does not mark it `Sendable`.
private struct _UncheckedSignalSource: @unchecked Sendable {
  let source: any DispatchSourceSignal
}
