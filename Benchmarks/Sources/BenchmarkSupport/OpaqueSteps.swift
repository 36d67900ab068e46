/// Asynchronous steps the optimizer cannot see through, for the hand-written callback contender.
///
/// A real asynchronous API lives in another module and keeps its completion handler until it completes, so the
/// closure a caller passes must be allocated on the heap. A step written next to its caller would let the
/// optimizer prove the closure does not escape and put it on the stack, a saving no real callback chain gets.
/// Calling through these mutable globals keeps the step opaque; the promise libraries' own steps are opaque
/// already, being library calls.
public enum OpaqueStep {
  /// Completes with `value + 1`, at once.
  nonisolated(unsafe) public static var increment: (Int, @escaping (Result<Int, BenchError>) -> Void) -> Void = {
    value, completion in completion(.success(value &+ 1))
  }

  /// Completes with `value - 1`, at once.
  nonisolated(unsafe) public static var decrement: (Int, @escaping (Result<Int, BenchError>) -> Void) -> Void = {
    value, completion in completion(.success(value - 1))
  }
}
