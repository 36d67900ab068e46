import Benchmark
import BenchmarkSupport
import LazyPromise

// LazyPromise's own contenders. `Promise` is lazy: a run builds nothing new when the chain is prebuilt, and
// every run runs the whole chain again.

let benchmarks: @Sendable () -> Void = {
  registerChainSweep("Promise") { shape, n in
    { PromiseChains.chain(shape, n).run { blackHole($0) } }
  }
  registerLengthSweep("Promise", "prebuilt") { n in
    let chain = PromiseChains.chain(.map, n)
    return { chain.run { blackHole($0) } }
  }
  registerLengthSweep("Promise", "error") { n in
    { PromiseChains.chain(.map, n, failing: true).run { blackHole($0) } }
  }
  registerLoop("Promise") { length in
    { PromiseChains.loop(length).run { blackHole($0) } }
  }
  let transport = InMemoryTransport()
  register(benchmarkName("Promise", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    PromiseChains.lookup("jack johnson", transport: transport).run { blackHole($0) }
  }
}
