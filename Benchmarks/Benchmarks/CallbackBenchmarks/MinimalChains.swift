import BenchmarkSupport
import MinimalPromise

/// The join users write (`Promise.task`'s chain) on `MinimalPromise`: what the API's shape costs before any engine.
enum MinimalChains {
  /// An `n`-stage chain whose every stage returns a promise made from the opaque step.
  static func taskChain(_ n: Int) -> MinimalPromise<Int, BenchError> {
    var chain = MinimalPromise<Int, BenchError> { completion in completion(.success(0)) }
    for _ in 0..<n {
      chain = chain.then { value in
        MinimalPromise<Int, BenchError> { completion in OpaqueStep.increment(value, completion) }
      }
    }
    return chain
  }
}
