import NIOCore
import NIOEmbedded

/// `promiseTaskChain`'s join on swift-nio: each stage's `flatMap` returns the future of a new promise that the task
/// (`request`) completes, on an `EmbeddedEventLoop` (callbacks run inline on this thread). Futures are eager, so the
/// chain is built on a pending promise and runs when that promise succeeds: one build and one run, as the other
/// `*.task` scenarios measure.
func nioTaskChain(_ stages: Int, on loop: EmbeddedEventLoop) {
  let start = loop.makePromise(of: Int.self)
  var future = start.futureResult
  for _ in 0..<stages {
    future = future.flatMap { value in
      let step = loop.makePromise(of: Int.self)
      request(value) { result in step.completeWith(result.mapError { $0 as any Error }) }
      return step.futureResult
    }
  }
  start.succeed(0)
  future.whenComplete { result in consume(result.mapError { _ in BenchError.failed }) }
}
