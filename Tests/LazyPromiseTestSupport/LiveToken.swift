/// Counts itself alive, and records the most ever alive at once.
///
/// ```swift
/// let live = Counter(), peak = Counter()
/// do { let token = LiveToken(live: live, peak: peak) }  // live: 1, then 0 when released; peak: 1
/// ```
public final class LiveToken: Sendable {
  /// The tokens alive now.
  public let live: Counter

  /// A token that counts itself in `live`, and raises `peak` when `live` passes it.
  public init(live: Counter, peak: Counter) {
    self.live = live
    let now = live.increment()
    if now > peak.current { peak.increment() }
  }

  deinit { live.decrement() }
}
