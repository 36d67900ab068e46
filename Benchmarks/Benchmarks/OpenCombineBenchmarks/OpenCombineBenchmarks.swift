import Benchmark
import BenchmarkSupport
import OpenCombine

// OpenCombine, the open-source Combine: a chain is a `Deferred { Future }` source with `n` operators, type
// erased with `eraseToAnyPublisher()` at each stage because a chain built in a loop needs one type. Like a
// LazyPromise `Promise`, nothing runs until a subscriber attaches, and every subscription runs it again.
//
// OpenCombine is not stack-safe: a subscription recurses through every operator, and at 1,000 `map` operators
// (or 10,000 loop iterations) it overflows the benchmark thread's stack at the default `ulimit -s 8192`.
// Those benchmarks are registered only when the stack limit allows (see `Scenario.hasDeepStack`).

let benchmarks: @Sendable () -> Void = {
  let deep = Scenario.hasDeepStack
  if !deep {
    note(
      "OpenCombineBenchmarks: map/prebuilt/error at N=1000 and the 10,000-iteration loop overflow the stack; skipped (ulimit -s 65536)"
    )
  }
  registerChainSweep("OpenCombine", skip: { shape, n in !deep && shape == .map && n == 1000 }) { shape, n in
    { CombineChains.run(CombineChains.chain(shape, n)) }
  }
  registerLengthSweep("OpenCombine", "prebuilt", skip: { n in !deep && n == 1000 }) { n in
    let chain = CombineChains.chain(.map, n)
    return { CombineChains.run(chain) }
  }
  registerLengthSweep("OpenCombine", "error", skip: { n in !deep && n == 1000 }) { n in
    { CombineChains.run(CombineChains.chain(.map, n, failing: true)) }
  }
  registerLengthSweep("OpenCombine", "task") { n in
    { CombineChains.run(CombineChains.taskChain(n)) }
  }
  register(benchmarkName("OpenCombine", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    CombineChains.run(CombineChains.all(Scenario.fanOut))
  }
  registerLoop("OpenCombine", skip: { length in !deep && length > 1000 }) { length in
    { CombineChains.run(CombineChains.loop(length)) }
  }
  let transport = InMemoryTransport()
  register(benchmarkName("OpenCombine", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    CombineChains.run(CombineChains.lookup("jack johnson", transport: transport))
  }
}
