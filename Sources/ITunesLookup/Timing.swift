import Foundation
import LazyPromise

/// Where `--verbose` logs each stage's duration: `decode      0.081 ms  ok`.
struct StageLog: Sendable {
  /// The console whose diagnostics receive the lines.
  var console: Console

  /// Logs one line for a stage that took `duration` and succeeded or not.
  func record(_ stage: String, _ duration: Duration, succeeded: Bool) {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    let name = stage.padding(toLength: 8, withPad: " ", startingAt: 0)
    console.report("\(name)\(String(format: "%9.3f", milliseconds)) ms  \(succeeded ? "ok" : "failed")")
  }
}

/// `stage`, logging its duration to `log` on each call; `stage` itself when `log` is `nil`.
func timed<T, U>(
  _ name: String, _ log: StageLog?, _ stage: @escaping @Sendable (T) -> Result<U, LookupError>
) -> @Sendable (T) -> Result<U, LookupError> {
  guard let log else { return stage }
  return { input in
    let start = ContinuousClock.now
    let result = stage(input)
    log.record(name, start.duration(to: .now), succeeded: result.succeeded)
    return result
  }
}

/// `promise`, logging how long each run took to deliver to `log`; `promise` itself when `log`
/// is `nil`. Cancelling the run cancels `promise`'s run.
func timed<T: Sendable>(
  _ name: String, _ log: StageLog?, _ promise: Promise<T, LookupError>
) -> Promise<T, LookupError> {
  guard let log else { return promise }
  return Promise { completion, onCancel in
    let start = ContinuousClock.now
    let handle = promise.run { result in
      log.record(name, start.duration(to: .now), succeeded: result.succeeded)
      completion(result)
    }
    onCancel { handle.cancel() }
  }
}

/// `sink`, logging its duration to `log` on each call; `sink` itself when `log` is `nil`.
func timed<T>(_ name: String, _ log: StageLog?, _ sink: @escaping @Sendable (T) -> Void) -> @Sendable (T) -> Void {
  guard let log else { return sink }
  return { input in
    let start = ContinuousClock.now
    sink(input)
    log.record(name, start.duration(to: .now), succeeded: true)
  }
}

extension Result {
  /// Whether this is a success, for the log.
  fileprivate var succeeded: Bool {
    if case .success = self { true } else { false }
  }
}
