import Benchmark
import BenchmarkSupport
import LazyPromise

// LazyPromise's own contenders. `Promise` is lazy: a run builds nothing new when the chain is prebuilt, and
// every run runs the whole chain again. `Future` is eager: each run makes a pending future, chains onto it,
// resolves it and observes the result, as the swift-nio contender does.

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
  // The joins: `flatMap` above returns `Promise(value:)`, which the engine delivers with no join at all. Here each
  // stage waits for a promise made from a task, or for a pending future resolved after the stage returns.
  registerLengthSweep("Promise", "task") { n in
    { PromiseChains.taskChain(n).run { blackHole($0) } }
  }
  registerLengthSweep("Future", "pendingPromise") { n in
    {
      PromiseChains.pendingFutureChain(n).run { blackHole($0) }
      Later.drain()
    }
  }
  for length in Scenario.loopLengths {
    register(benchmarkName("Promise", "taskLoop", length), repetitions: Scenario.loopIterations / length) {
      PromiseChains.taskLoop(length).run { blackHole($0) }
    }
  }
  register(benchmarkName("Promise", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    Promise.all((0..<Scenario.fanOut).map { Promise<Int, BenchError>(value: $0) }).run { blackHole($0) }
  }
  // `all` with a transform: each input's promise is made as the input starts.
  register(benchmarkName("Promise", "allMap", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    Promise.all(0..<Scenario.fanOut) { Promise<Int, BenchError>(value: $0) }.run { blackHole($0) }
  }
  // `reduce` is a loop: the inputs run one after another, each folded in before the next starts.
  register(benchmarkName("Promise", "reduce", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    Promise.reduce((0..<Scenario.fanOut).map { Promise<Int, BenchError>(value: $0) }, initial: 0, +)
      .run { blackHole($0) }
  }
  let transport = InMemoryTransport()
  register(benchmarkName("Promise", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    PromiseChains.lookup("jack johnson", transport: transport).run { blackHole($0) }
  }

  registerChainSweep("Future") { shape, n in
    { FutureChains.chain(shape, n, failing: false) }
  }
  registerLengthSweep("Future", "error") { n in
    { FutureChains.chain(.map, n, failing: true) }
  }
  registerLengthSweep("Future", "task") { n in
    { FutureChains.taskChain(n) }
  }
  registerLoop("Future") { length in
    { FutureChains.loop(length).observe { blackHole($0) } }
  }
  register(benchmarkName("Future", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    FutureChains.lookup("jack johnson", transport: transport).observe { blackHole($0) }
  }
}
