/// A value the library moves between threads where the compiler cannot see that doing so is safe:
///
/// - a result handed from the stage that produced it to the stage that consumes it, exactly once (like a
///   `sending` parameter: the producer never touches it again) — which is why a promise of a non-`Sendable` value
///   may still hop threads inside one run, as its tasks' results always have;
/// - a promise an operator runs (again) from another thread: a promise is immutable, and running it from the
///   thread a result arrived on is what every stage does;
/// - a thread-safe object from a module without `Sendable` annotations (a Dispatch source).
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
