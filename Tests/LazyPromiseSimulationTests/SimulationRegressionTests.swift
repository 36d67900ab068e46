import Testing

/// Programs the simulation found, shrunk, kept as regression tests.
@Suite("Simulation regressions", .serialized)
struct SimulationRegressionTests {
  @Test("a race whose first input fails synchronously delivers that failure at any stack depth (2.1, 6, 24.1)")
  func raceAtDepth() {
    for depth in [nil, 0, 40, 60, 90, 120, 127, 140] {
      for retries in [0, 1, 2, 4, 8, 12] {
        let program = Program(
          seed: 0,
          root: .retry(
            .race(
              [
                .retry(.catching(id: 0, .failure(SimError(code: 21))), retries: 2, fn: 0, backoff: nil),
                .task(Leaf(id: 1, behavior: .sync(.success(33)), cancelHandler: false)),
              ], array: false), retries: retries, fn: 2, backoff: nil),
          cancelAt: nil, depthKiB: depth)
        #expect(
          Simulation.mismatch(in: program) == nil, "retry(\(retries)) at \(depth.map { "\($0) KiB" } ?? "the top")")
      }
    }
  }
}
