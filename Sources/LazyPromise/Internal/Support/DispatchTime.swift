extension Duration {
  /// This duration in whole nanoseconds for Dispatch: zero for negative durations, `Int.max` (about 292 years)
  /// for longer ones.
  var dispatchNanoseconds: Int {
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    guard seconds < Int64(Int.max / 1_000_000_000) else { return Int.max }
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}
