import Benchmark
import Foundation

/// The sizes every contender runs, so that one `benchmark` invocation compares like with like.
///
/// Each iteration of a chain benchmark runs `stagesPerIteration` stages in total: `stagesPerIteration / N`
/// runs of an N-stage chain. A measured iteration therefore reads directly as a per-stage figure:
/// microseconds per iteration are nanoseconds per stage, and allocations per iteration divided by 1,000 are
/// allocations per stage.
public enum Scenario {
  /// The chain lengths swept for every `then` shape.
  public static let chainLengths = [1, 10, 100, 1000]
  /// The number of stages one measured iteration runs, whatever the chain length.
  public static let stagesPerIteration = 1000
  /// The number of children `zip`/`all` combines.
  public static let fanOut = 100
  /// How many combinations of `fanOut` children one iteration runs (1,000 children in all).
  public static let fanOutRunsPerIteration = 10
  /// The number of iterations of the recursive loop.
  public static let loopIterations = 10_000
  /// The loop lengths measured: 10,000 as specified, and 1,000 so that the per-iteration cost can be told
  /// apart from the per-run cost. One measured iteration runs `loopIterations` loop iterations either way.
  public static let loopLengths = [1000, loopIterations]
  /// How many pipelines one iteration of the iTunes scenario runs.
  public static let pipelinesPerIteration = 10

  /// The soft stack limit (`ulimit -s`) below which contenders that are not stack-safe are skipped at
  /// depths where they overflow the benchmark thread's stack (64 MiB).
  public static let deepStackLimit = 64 << 20

  /// Whether the process may run scenarios that overflow the stack of a contender that is not stack-safe.
  ///
  /// package-benchmark runs the measured closures on a libdispatch worker thread, whose stack is derived from
  /// the soft `RLIMIT_STACK`. At the default `ulimit -s 8192`, an OpenCombine chain of 1,000 operators
  /// overflows it. `ulimit -s 65536` before `swift package benchmark` makes room.
  public static var hasDeepStack: Bool {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0 else { return false }
    return limit.rlim_cur == rlim_t.max || limit.rlim_cur >= rlim_t(deepStackLimit)
  }

  /// The number of runs of an `n`-stage chain that make up one iteration.
  public static func runs(forChainLength n: Int) -> Int {
    precondition(n > 0 && stagesPerIteration % n == 0, "chain length \(n) must divide \(stagesPerIteration)")
    return stagesPerIteration / n
  }
}

/// The shapes of `then` every chain benchmark sweeps.
public enum Shape: String, CaseIterable, Sendable {
  /// `T -> U`: a plain transform (`map`).
  case map
  /// `T -> Result<U, E>`: a transform that can fail synchronously.
  case mapResult
  /// `T -> Promise<U, E>` (or the contender's own deferred type): an asynchronous step.
  case flatMap
}

/// The error every contender's failing source and stages use.
public enum BenchError: Error, Equatable, Sendable {
  /// The one failure the error-path scenario raises at its first stage.
  case failed
}

/// Builds a benchmark name of the form `Contender.scenario.size`.
///
/// Names contain no spaces or slashes: package-benchmark writes threshold files named after them and reads them
/// back without escaping.
public func benchmarkName(_ contender: String, _ scenario: String, _ size: Int) -> String {
  "\(contender).\(scenario).\(size)"
}

/// What a run measures, chosen with `LAZYPROMISE_BENCHMARK_MODE` in the environment.
///
/// Measuring some metrics disturbs others: package-benchmark reads CPU and memory statistics from `/proc`, which
/// allocates inside the measured region. `Scripts/publish.sh` therefore measures in passes.
public enum MeasurementMode: String, Sendable {
  /// Everything, for a person at a terminal (the default).
  case all
  /// `mallocCountTotal` only, 10 iterations: what `Scripts/check-allocations.sh` checks against the ceilings.
  case allocations
  /// Wall clock and the benchmark thread's CPU time only.
  case time
  /// Peak resident memory only.
  case memory

  /// The mode the environment selects.
  public static let current = MeasurementMode(rawValue: environmentValue("LAZYPROMISE_BENCHMARK_MODE") ?? "all") ?? .all
}

extension BenchmarkMetric {
  /// CPU time of the benchmark thread (`CLOCK_THREAD_CPUTIME_ID`, nanosecond resolution).
  ///
  /// package-benchmark's own `cpuTotal` counts in scheduler ticks (10 ms here), far coarser than one iteration.
  /// Thread CPU time also leaves out the time other processes took the core, so on a shared machine it is the
  /// steadier figure for comparing contenders.
  public static var threadCPU: BenchmarkMetric { .custom("Thread CPU time", polarity: .prefersSmaller) }
}

extension Benchmark.Configuration {
  /// The configuration every LazyPromise benchmark uses, by ``MeasurementMode``.
  ///
  /// In every mode the `mallocCountTotal` tolerance is zero: a benchmark that allocates more than its committed
  /// ceiling fails `benchmark thresholds check`.
  public static var lazyPromise: Benchmark.Configuration {
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]
    switch MeasurementMode.current {
    case .allocations:
      return .init(
        metrics: [.mallocCountTotal], warmupIterations: 2, maxDuration: .seconds(2), maxIterations: 10,
        thresholds: thresholds)
    case .time:
      return .init(
        metrics: [.wallClock, .threadCPU], timeUnits: .nanoseconds, warmupIterations: 10, maxDuration: .seconds(1),
        maxIterations: 10_000)
    case .memory:
      return .init(metrics: [.peakMemoryResident], warmupIterations: 2, maxDuration: .seconds(1), maxIterations: 50)
    case .all:
      return .init(
        metrics: [.wallClock, .threadCPU, .mallocCountTotal, .mallocBytesCount, .peakMemoryResident],
        timeUnits: .nanoseconds, warmupIterations: 10, maxDuration: .seconds(1), maxIterations: 10_000,
        thresholds: thresholds)
    }
  }

  /// Whether the run measures the benchmark thread's CPU time (``BenchmarkMetric/threadCPU``).
  static let measuresThreadCPU = lazyPromise.metrics.contains(.threadCPU)
}

/// The CPU time the calling thread has used, in nanoseconds.
@inline(__always)
func threadCPUTime() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

func environmentValue(_ name: String) -> String? {
  ProcessInfo.processInfo.environment[name]
}

// MARK: - Registration

/// Registers a synchronous benchmark whose iteration calls `body` `repetitions` times.
///
/// - Parameters:
///   - name: The benchmark name, from ``benchmarkName(_:_:_:)``.
///   - repetitions: How many times one measured iteration calls `body`.
///   - body: One run of the scenario; it passes its result to `blackHole`.
public func register(_ name: String, repetitions: Int, _ body: @escaping () -> Void) {
  let measuresThreadCPU = Benchmark.Configuration.measuresThreadCPU
  Benchmark(name, configuration: .lazyPromise) { benchmark in
    let start = measuresThreadCPU ? threadCPUTime() : 0
    for _ in 0..<repetitions {
      body()
    }
    if measuresThreadCPU { benchmark.measurement(.threadCPU, threadCPUTime() - start) }
  }
}

/// Registers an `async` benchmark whose iteration awaits `body` `repetitions` times in the benchmark's task.
///
/// - Parameters:
///   - name: The benchmark name, from ``benchmarkName(_:_:_:)``.
///   - repetitions: How many times one measured iteration awaits `body`.
///   - body: One run of the scenario; it passes its result to `blackHole`.
///
/// Thread CPU time is measured only while the task stays on one thread, which it does here: the steps complete
/// without suspending.
public func registerAsync(_ name: String, repetitions: Int, _ body: @escaping () async -> Void) {
  let measuresThreadCPU = Benchmark.Configuration.measuresThreadCPU
  Benchmark(name, configuration: .lazyPromise) { benchmark in
    let start = measuresThreadCPU ? threadCPUTime() : 0
    for _ in 0..<repetitions {
      await body()
    }
    if measuresThreadCPU { benchmark.measurement(.threadCPU, threadCPUTime() - start) }
  }
}

/// Registers the chain sweep of one contender: every shape at every chain length.
///
/// - Parameters:
///   - contender: The contender's name, the first component of every benchmark name.
///   - skip: Returns `true` for a shape and length the contender cannot run (it is left out, not failed).
///   - makeRun: Returns one run of an `n`-stage chain of the given shape (built and run, or for eager
///     contenders created, chained and completed).
public func registerChainSweep(
  _ contender: String, skip: (Shape, Int) -> Bool = { _, _ in false }, _ makeRun: (Shape, Int) -> () -> Void
) {
  for shape in Shape.allCases {
    for n in Scenario.chainLengths where !skip(shape, n) {
      register(
        benchmarkName(contender, shape.rawValue, n), repetitions: Scenario.runs(forChainLength: n), makeRun(shape, n))
    }
  }
}

/// Registers a sweep of chain lengths for one scenario (for example `error` or `prebuilt`).
///
/// - Parameters:
///   - contender: The contender's name.
///   - scenario: The scenario's name.
///   - skip: Returns `true` for a length the contender cannot run (it is left out, not failed).
///   - makeRun: Returns one run of an `n`-stage chain.
public func registerLengthSweep(
  _ contender: String, _ scenario: String, skip: (Int) -> Bool = { _ in false }, _ makeRun: (Int) -> () -> Void
) {
  for n in Scenario.chainLengths where !skip(n) {
    register(benchmarkName(contender, scenario, n), repetitions: Scenario.runs(forChainLength: n), makeRun(n))
  }
}

/// Registers the recursive loop at every length in ``Scenario/loopLengths``.
///
/// - Parameters:
///   - contender: The contender's name.
///   - skip: Returns `true` for a length the contender cannot run (it is left out, not failed).
///   - makeRun: Returns one run of a loop of the given length.
public func registerLoop(_ contender: String, skip: (Int) -> Bool = { _ in false }, _ makeRun: (Int) -> () -> Void) {
  for length in Scenario.loopLengths where !skip(length) {
    register(
      benchmarkName(contender, "loop", length), repetitions: Scenario.loopIterations / length, makeRun(length))
  }
}

/// Writes a note about the run to standard error (standard output belongs to the benchmark tool).
public func note(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
