import Dispatch

/// Burns a little time without sleeping, to skew a race; zero or less burns none.
///
/// ```swift
/// spin(500)  // a few hundred nanoseconds
/// ```
@inline(never)
public func spin(_ iterations: Int) {
  var x = 0
  for i in 0..<max(iterations, 0) { x &+= i &* 31 }
  withExtendedLifetime(x) {}
}

/// Runs `one` and `other` on two global-queue threads, in random order, holding back `one` by `skew` spins (or
/// `other`, when `skew` is negative).
///
/// ```swift
/// race(skew: Int.random(in: -200...200), { completion(.success(1)) }, { handle.cancel() })
/// ```
public func race(skew: Int, _ one: @escaping @Sendable () -> Void, _ other: @escaping @Sendable () -> Void) {
  let held: @Sendable () -> Void = {
    spin(skew)
    one()
  }
  let holding: @Sendable () -> Void = {
    spin(-skew)
    other()
  }
  let (first, second) = Bool.random() ? (held, holding) : (holding, held)
  DispatchQueue.global().async(execute: first)
  DispatchQueue.global().async(execute: second)
}
