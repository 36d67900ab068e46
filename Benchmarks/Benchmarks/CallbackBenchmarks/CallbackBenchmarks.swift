import Benchmark
import BenchmarkSupport

// The floor every other contender is measured against: hand-written nested completion handlers, and below it
// plain closure composition (no completion handler at all). The same scenarios as every other target.

let benchmarks: @Sendable () -> Void = {
  registerChainSweep("Callbacks") { shape, n in
    { Callbacks.chain(shape, n)({ blackHole($0) }) }
  }
  registerLengthSweep("Callbacks", "prebuilt") { n in
    let operation = Callbacks.chain(.map, n)
    return { operation { blackHole($0) } }
  }
  registerLengthSweep("Callbacks", "error") { n in
    { Callbacks.chain(.map, n, failing: true) { blackHole($0) } }
  }
  register(benchmarkName("Callbacks", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    Callbacks.all(Scenario.fanOut) { blackHole($0) }
  }
  // The floor of the join scenarios (`Promise.task`, `Future.pendingPromise`, `NIO.task`): a chain calling the
  // same opaque step at every stage. It is the `flatMap` shape above under the name those scenarios compare with.
  registerLengthSweep("Callbacks", "task") { n in
    { Callbacks.chain(.flatMap, n)({ blackHole($0) }) }
  }
  // The same join on the smallest generic lazy promise (`MinimalPromise`): the floor the API's shape sets.
  registerLengthSweep("Minimal", "task") { n in
    { MinimalChains.taskChain(n).task { blackHole($0) } }
  }
  registerLoop("Callbacks") { length in
    { Callbacks.loop(length) { blackHole($0) } }
  }
  let transport = InMemoryTransport()
  register(benchmarkName("Callbacks", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    Callbacks.lookup("jack johnson", transport: transport) { blackHole($0) }
  }

  registerLengthSweep("Composition", "map") { n in
    { blackHole(Composition.chain(n)(0)) }
  }
}
