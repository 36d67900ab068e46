import Benchmark
import BenchmarkSupport
import Foundation
import NIOCore
import NIOEmbedded

enum NIOChains {
  /// One run: a pending promise, `n` stages chained onto its future, the promise completed, the result observed.
  static func chain(_ shape: Shape, _ n: Int, on loop: EmbeddedEventLoop, failing: Bool) {
    let promise = loop.makePromise(of: Int.self)
    var future = promise.futureResult
    switch shape {
    case .map:
      for _ in 0..<n { future = future.map { $0 &+ 1 } }
    case .mapResult:
      for _ in 0..<n { future = future.flatMapResult { incrementResult($0) } }
    case .flatMap:
      for _ in 0..<n { future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) } }
    }
    if failing {
      promise.fail(BenchError.failed)
    } else {
      promise.succeed(0)
    }
    future.whenComplete { blackHole($0) }
  }

  /// One run of `n` stages whose `flatMap` each returns the future of a new promise that a task completes: the
  /// opaque step `Callbacks.task` calls at every stage.
  static func taskChain(_ n: Int, on loop: EmbeddedEventLoop) {
    let promise = loop.makePromise(of: Int.self)
    var future = promise.futureResult
    for _ in 0..<n {
      future = future.flatMap { value in
        let step = loop.makePromise(of: Int.self)
        OpaqueStep.increment(value) { result in step.completeWith(result.mapError { $0 as any Error }) }
        return step.futureResult
      }
    }
    promise.succeed(0)
    future.whenComplete { blackHole($0) }
  }

  @inline(never)
  static func incrementResult(_ value: Int) -> Result<Int, BenchError> {
    .success(value &+ 1)
  }

  /// A recursive loop: each iteration is a future whose `flatMap` starts the next iteration.
  static func loop(_ remaining: Int, on loop: EmbeddedEventLoop) -> EventLoopFuture<Int> {
    if remaining == 0 { return loop.makeSucceededFuture(0) }
    return loop.makeSucceededFuture(remaining - 1).flatMap { Self.loop($0, on: loop) }
  }

  /// The iTunes pipeline: request, transport, decode, titles.
  static func lookup(
    _ term: String, transport: InMemoryTransport, on loop: EmbeddedEventLoop
  )
    -> EventLoopFuture<[String]>
  {
    let promise = loop.makePromise(of: Data.self)
    transport.send(SearchRequest(term: term)) { result in promise.completeWith(result.mapError { $0 as any Error }) }
    return promise.futureResult.flatMapResult { decodeTracks($0) }.map(titles)
  }
}
