/// How long `retry` waits before each new attempt.
///
/// The wait before retry `n` (1 for the first retry) is ``delay(beforeRetry:)``. Use ``constant(_:)``,
/// ``exponential(initial:multiplier:maximum:)``, or your own function — for example to add jitter.
///
/// ```swift
/// let jittered = RetryBackoff { retry in .milliseconds(100 * retry + Int.random(in: 0..<50)) }
/// lookup.retry(3, backoff: jittered, on: DispatchQueue.global())
/// ```
public struct RetryBackoff: Sendable {
  private let delayBeforeRetry: @Sendable (Int) -> Duration

  /// Creates a backoff from a function of the retry number (1 for the first retry).
  ///
  /// The function runs on the thread that delivered the failed attempt's error.
  ///
  /// ```swift
  /// let linear = RetryBackoff { retry in .seconds(retry) }  // 1 s, 2 s, 3 s, ...
  /// ```
  ///
  /// - Parameter delay: The wait before retry `n`; a negative result counts as zero.
  public init(_ delay: @escaping @Sendable (_ retry: Int) -> Duration) {
    delayBeforeRetry = delay
  }

  /// The same wait before every retry.
  ///
  /// ```swift
  /// lookup.retry(2, backoff: .constant(.seconds(1)), on: DispatchQueue.global())
  /// ```
  ///
  /// - Parameter delay: The wait.
  /// - Returns: A backoff that always waits `delay`.
  public static func constant(_ delay: Duration) -> RetryBackoff {
    RetryBackoff { _ in delay }
  }

  /// A wait that grows by `multiplier` with each retry, up to `maximum`: `initial`, `initial × multiplier`, ...
  ///
  /// ```swift
  /// // 200 ms, 400 ms, 800 ms, 1.6 s, then 2 s for every later retry
  /// let backoff = RetryBackoff.exponential(initial: .milliseconds(200), maximum: .seconds(2))
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry.
  ///   - multiplier: How much each wait grows; anything but a finite number of at least 1 counts as 1.
  ///   - maximum: The longest wait.
  /// - Returns: An exponential backoff.
  public static func exponential(
    initial: Duration, multiplier: Double = 2, maximum: Duration = .seconds(60)
  ) -> RetryBackoff {
    let multiplier = multiplier.isFinite && multiplier >= 1 ? multiplier : 1
    return RetryBackoff { retry in
      var delay = initial
      for _ in 1..<max(retry, 1) {
        if delay >= maximum { break }
        delay = delay.seconds * multiplier >= maximum.seconds ? maximum : delay * multiplier
      }
      return min(delay, maximum)
    }
  }

  /// The wait before retry `retry` (1 for the first retry); never negative.
  ///
  /// ```swift
  /// RetryBackoff.constant(.seconds(1)).delay(beforeRetry: 3)  // 1 second
  /// ```
  ///
  /// - Parameter retry: Which retry is about to start, counting from 1.
  /// - Returns: How long to wait before it.
  public func delay(beforeRetry retry: Int) -> Duration {
    max(delayBeforeRetry(retry), .zero)
  }
}

extension Duration {
  /// This duration in seconds, as a `Double`.
  fileprivate var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
