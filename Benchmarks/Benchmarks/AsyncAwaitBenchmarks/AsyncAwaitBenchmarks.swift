import Benchmark
import BenchmarkSupport
import Dispatch

// Swift async/await. The steps of a chain are awaited one after another in the benchmark's own task (there is
// no chain value to build: the chain is code). Entering a task from synchronous code — what a callback-based
// caller pays to use an async API — is measured separately as `Async.taskEntry`.

let benchmarks: @Sendable () -> Void = {
  for shape in Shape.allCases {
    for n in Scenario.chainLengths {
      registerAsync(benchmarkName("Async", shape.rawValue, n), repetitions: Scenario.runs(forChainLength: n)) {
        blackHole(await AsyncChains.chain(shape, n))
      }
    }
  }
  for n in Scenario.chainLengths {
    registerAsync(benchmarkName("Async", "error", n), repetitions: Scenario.runs(forChainLength: n)) {
      blackHole(await AsyncChains.failingChain(n))
    }
  }
  for n in Scenario.chainLengths {
    registerAsync(benchmarkName("Async", "task", n), repetitions: Scenario.runs(forChainLength: n)) {
      blackHole(await AsyncChains.taskChain(n))
    }
  }
  registerAsync(benchmarkName("Async", "all", Scenario.fanOut), repetitions: Scenario.fanOutRunsPerIteration) {
    blackHole(await AsyncChains.all(Scenario.fanOut))
  }
  for length in Scenario.loopLengths {
    registerAsync(benchmarkName("Async", "loop", length), repetitions: Scenario.loopIterations / length) {
      blackHole(await AsyncChains.loop(length))
    }
  }
  let transport = InMemoryTransport()
  registerAsync(benchmarkName("Async", "itunes", 1), repetitions: Scenario.pipelinesPerIteration) {
    blackHole(await AsyncChains.lookup("jack johnson", transport: transport))
  }
  // From synchronous code: start a task that awaits a one-stage chain, and wait for it to finish.
  register(benchmarkName("Async", "taskEntry", 1), repetitions: Scenario.pipelinesPerIteration) {
    let done = DispatchSemaphore(value: 0)
    Task {
      blackHole(await AsyncChains.chain(.map, 1))
      done.signal()
    }
    done.wait()
  }
}
