import Benchmark
import BenchmarkSupport
import NIOCore
import NIOEmbedded

// swift-nio's `EventLoopFuture` on an `EmbeddedEventLoop`: callbacks run inline on the calling thread, so
// the figures are the future machinery's own cost. Futures are eager: each run makes a promise, chains the
// stages onto its pending future, completes the promise and observes the result.

let benchmarks: @Sendable () -> Void = {
  let loop = EmbeddedEventLoop()
  registerChainSweep("NIO") { shape, n in
    { NIOChains.chain(shape, n, on: loop, failing: false) }
  }
  registerLengthSweep("NIO", "error") { n in
    { NIOChains.chain(.map, n, on: loop, failing: true) }
  }
  register(benchmarkName("NIO", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    let futures = (0..<Scenario.fanOut).map { loop.makeSucceededFuture($0) }
    EventLoopFuture.whenAllSucceed(futures, on: loop).whenComplete { blackHole($0) }
  }
  // The join: each stage's `flatMap` returns the future of a promise that the opaque step completes.
  registerLengthSweep("NIO", "task") { n in
    { NIOChains.taskChain(n, on: loop) }
  }
  registerLoop("NIO") { length in
    { NIOChains.loop(length, on: loop).whenComplete { blackHole($0) } }
  }
  let transport = InMemoryTransport()
  register(benchmarkName("NIO", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    NIOChains.lookup("jack johnson", transport: transport, on: loop).whenComplete { blackHole($0) }
  }
}
