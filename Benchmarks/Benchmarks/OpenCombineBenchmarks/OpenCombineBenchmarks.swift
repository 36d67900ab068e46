import Benchmark
import BenchmarkSupport
import OpenCombine

// OpenCombine, the open-source Combine: a chain is a `Deferred { Future }` source with `n` operators, type
// erased with `eraseToAnyPublisher()` at each stage because a chain built in a loop needs one type. Like a
// LazyPromise `Promise`, nothing runs until a subscriber attaches, and every subscription runs it again.

let benchmarks: @Sendable () -> Void = {
  registerChainSweep("OpenCombine") { shape, n in
    { CombineChains.run(CombineChains.chain(shape, n)) }
  }
  registerLengthSweep("OpenCombine", "prebuilt") { n in
    let chain = CombineChains.chain(.map, n)
    return { CombineChains.run(chain) }
  }
  registerLengthSweep("OpenCombine", "error") { n in
    { CombineChains.run(CombineChains.chain(.map, n, failing: true)) }
  }
  register(benchmarkName("OpenCombine", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    CombineChains.run(CombineChains.all(Scenario.fanOut))
  }
  register(benchmarkName("OpenCombine", "loop", Scenario.loopIterations), repetitions: 1) {
    CombineChains.run(CombineChains.loop(Scenario.loopIterations))
  }
  let transport = InMemoryTransport()
  register(benchmarkName("OpenCombine", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    CombineChains.run(CombineChains.lookup("jack johnson", transport: transport))
  }
}
