import Benchmark
import BenchmarkSupport
import Foundation
import LazyPromise

/// LazyPromise `Future`, the eager counterpart of `Promise`: each run makes a pending future, chains the stages
/// onto it, resolves it and observes the result — the same shape as the swift-nio contender.
enum FutureChains {
  static func chain(_ shape: Shape, _ n: Int, failing: Bool) {
    let (source, resolver) = Future<Int, BenchError>.makePending()
    var future = source
    switch shape {
    case .map:
      for _ in 0..<n { future = future.then { $0 &+ 1 } }
    case .mapResult:
      for _ in 0..<n { future = future.then { incrementResult($0) } }
    case .flatMap:
      for _ in 0..<n { future = future.then { Future(value: $0 &+ 1) } }
    }
    if failing {
      resolver.reject(.failed)
    } else {
      resolver.resolve(0)
    }
    future.observe { blackHole($0) }
  }

  /// One run of `n` stages that each return a future made from a task (the opaque step `Callbacks.task` calls).
  static func taskChain(_ n: Int) {
    let (source, resolver) = Future<Int, BenchError>.makePending()
    var future = source
    for _ in 0..<n {
      future = future.then { value in
        Future<Int, BenchError> { completion in OpaqueStep.increment(value, completion) }
      }
    }
    resolver.resolve(0)
    future.observe { blackHole($0) }
  }

  @inline(never)
  static func incrementResult(_ value: Int) -> Result<Int, BenchError> {
    .success(value &+ 1)
  }

  /// A recursive loop: each iteration is a future whose `then` starts the next iteration.
  static func loop(_ remaining: Int) -> Future<Int, BenchError> {
    if remaining == 0 { return Future(value: 0) }
    return Future(value: remaining - 1).then { loop($0) }
  }

  /// The iTunes pipeline: request, transport, decode, titles.
  static func lookup(_ term: String, transport: InMemoryTransport) -> Future<[String], PipelineError> {
    let body = Future<Data, PipelineError> { completion in
      transport.send(SearchRequest(term: term)) { completion($0) }
    }
    let tracks: Future<[Track], PipelineError> = body.then { decodeTracks($0) }
    return tracks.then { titles($0) }
  }
}
