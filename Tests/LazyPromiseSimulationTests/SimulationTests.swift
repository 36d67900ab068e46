import LazyPromise
import LazyPromiseTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The deterministic simulation check (Docs/Simulation.md): random programs against the contract's model.
///
/// - `LAZYPROMISE_SIM_SEEDS`: how many seeds (2,000 by default); `LAZYPROMISE_SIM_FIRST`: the first (1).
/// - `LAZYPROMISE_SIM_SEED`: replay one seed, printing its program.
/// - `LAZYPROMISE_SIM_EXCLUDE`: operator families to leave out
///   (`future,shared,time,retry,combinators,drop,twice,depth`).
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

@Suite("Simulation", .serialized)
struct LazyPromiseSimulationTests {
  private static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  static var excluded: Set<String> {
    Set((environment("LAZYPROMISE_SIM_EXCLUDE") ?? "").split(separator: ",").map(String.init))
  }

  /// Runs `body` on a thread with a 64 MiB stack: programs start up to 260 KiB deep.
  private static func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    DiagnosticsCollector.install()  // lost callbacks are reported in debug builds (5.1): collected, not printed
    let box = ResultBox<T>()
    await onThread(stackSize: 64 << 20) { box.value = body() }
    return box.value!
  }

  @Test("generated programs deliver, start, call, cancel and free what the contract's model says")
  func programsMatchTheModel() async {
    let replay = Self.environment("LAZYPROMISE_SIM_SEED").flatMap { UInt64($0) }
    let first = Self.environment("LAZYPROMISE_SIM_FIRST").flatMap { UInt64($0) } ?? 1
    let count = Self.environment("LAZYPROMISE_SIM_SEEDS").flatMap { UInt64($0) } ?? 2_000
    let seeds = replay.map { $0...$0 } ?? first...(first + max(count, 1) - 1)
    let excluded = Self.excluded
    let verbose = Self.environment("LAZYPROMISE_SIM_VERBOSE") == "1"
    Simulation.strictLeaks = Self.environment("LAZYPROMISE_SIM_STRICT_LEAKS") == "1"
    let failures = await Self.onLargeStack { () -> [String] in
      Simulation.installCrashReporter()
      var failures: [String] = []
      var failing = 0
      let clock = ContinuousClock()
      let start = clock.now
      for seed in seeds {
        Simulation.currentSeed = seed
        let program = Generator.program(seed: seed, excluding: excluded)
        if replay != nil { print("LazyPromise simulation, replaying:\n\(Printer.swiftSource(program))") }
        guard let problem = Simulation.mismatch(in: program) else { continue }
        failing += 1
        if verbose { print("seed \(seed): \(problem.split(separator: "\n").joined(separator: " | "))") }
        guard failures.count < 3 else { continue }  // shrink and print the first few
        let small = Simulation.shrink(program)
        failures.append(
          """
          seed \(seed) differs from the model:
          \(problem)
          shrunk (\(program.root.size) → \(small.root.size) nodes), the program:
          \(Printer.swiftSource(small))
          what it differs in:
          \(Simulation.mismatch(in: small) ?? "(nothing: the shrunk program passes)")
          as a regression test:
          #expect(Simulation.mismatch(in: \(Printer.literal(small))) == nil)
          """)
      }
      let elapsed = (clock.now - start).components
      let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
      print(
        "LazyPromise simulation: \(seeds.count) programs from seed \(seeds.lowerBound) in \(Double(Int(seconds * 100)) / 100) s"
          + " (\(Int(Double(seeds.count) / max(seconds, 1e-9))) programs/s), \(failing) differ from the model")
      return failures
    }
    for failure in failures {
      print(failure)
      Issue.record(Comment(rawValue: failure))
    }
  }

  /// The broken models whose operator family `LAZYPROMISE_SIM_EXCLUDE` leaves in the programs.
  static var brokenModels: [ModelMutation] {
    ModelMutation.allCases.filter { $0 != .none && !excluded.contains($0.family) }
  }

  @Test("the check finds a model that is wrong", arguments: brokenModels)
  func aBrokenModelIsFound(_ mutation: ModelMutation) async {
    let excluded = Self.excluded
    let found = await Self.onLargeStack { () -> UInt64? in
      for seed in UInt64(1)...500 {
        Simulation.currentSeed = seed
        let program = Generator.program(seed: seed, excluding: excluded)
        let report = EngineRunner.run(program)
        // A seed where the true model agrees with the engine and the broken one does not.
        guard Simulation.mismatch(program, report, Model.observe(program)) == nil else { continue }
        if Simulation.mismatch(program, report, Model.observe(program, mutation: mutation)) != nil { return seed }
      }
      return nil
    }
    #expect(found != nil, "no program out of 500 told the model broken by \(mutation) from the engine")
    if let found { print("LazyPromise simulation: the model broken by \(mutation) differs at seed \(found)") }
  }
}
