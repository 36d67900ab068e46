import LazyPromise
import Synchronization
import Testing

@testable import LazyPromise

#if DEBUG
  private let unoptimized = true
#else
  private let unoptimized = false
#endif

/// Engine.md's invariant 9: a run of a prebuilt chain writes no object another run of the same chain touches. A
/// stage's reference count is such a word: read before a run and during it (from the chain's last stage's own
/// function), it must not move. Release builds only: unoptimized code retains what optimized code borrows.
@Suite(
  "Shared stages — a run of a prebuilt chain leaves its stages' reference counts alone",
  .disabled(if: unoptimized, "reference counts are seen only in an optimized build"))
struct SharedStageWriteTests {
  /// The reference count of the last stage of `chain`, read the same way before and during a run.
  final class Probe: Sendable {
    let stage: Mutex<Unmanaged<_AnyStage>?> = Mutex(nil)
    let during: Mutex<UInt> = Mutex(0)

    func count() -> UInt {
      stage.withLock { $0 }.map { _getRetainCount($0.takeUnretainedValue()) } ?? 0
    }

    /// `chain` ending with a stage that records its own reference count while the run goes through it.
    func recording(_ chain: Promise<Int, Never>) -> Promise<Int, Never> {
      let recorded = chain.map { [self] value in
        during.withLock { $0 = count() }
        return value
      }
      guard case .stage(let last) = recorded._source else { preconditionFailure("a map is a stage") }
      stage.withLock { $0 = Unmanaged.passUnretained(last.takeUnretainedValue()) }
      return recorded
    }
  }

  @Test("a run of a resolved future's view through shared map stages leaves their reference counts where they were")
  func aResolvedFuturesViewLeavesTheSharedStagesAlone() {
    let probe = Probe()
    var chain = Future<Int, Never>(value: 1).promise
    for _ in 0..<9 { chain = chain.map { $0 &+ 1 } }
    let recorded = probe.recording(chain)
    let before = probe.count()
    let delivered = Mutex(0)
    recorded.run(some: { value in delivered.withLock { $0 = value } })
    #expect(delivered.withLock { $0 } == 10)
    #expect(probe.during.withLock { $0 } == before)
    #expect(probe.count() == before)
  }

  @Test("a run of shared joins that complete synchronously leaves the shared stages' reference counts alone")
  func synchronousJoinsLeaveTheSharedStagesAlone() {
    let probe = Probe()
    var chain = Promise<Int, Never>(value: 0)
    for _ in 0..<10 {
      chain = chain.then { value in Promise<Int, Never> { completion in completion(.success(value &+ 1)) } }
    }
    let recorded = probe.recording(chain)
    let before = probe.count()
    let delivered = Mutex(0)
    for _ in 0..<3 {
      recorded.run(some: { value in delivered.withLock { $0 = value } })
      #expect(delivered.withLock { $0 } == 10)
      #expect(probe.during.withLock { $0 } == before)
      #expect(probe.count() == before)
    }
  }

  @Test(
    "a run of shared joins that complete later keeps the segment's last stage by one reference while it waits"
  )
  func asynchronousJoinsKeepTheLastStageByOneReference() {
    let probe = Probe()
    let pending = Mutex<[@Sendable (Result<Int, Never>) -> Void]>([])
    var chain = Promise<Int, Never>(value: 0)
    for _ in 0..<10 {
      chain = chain.then { value in
        Promise<Int, Never> { completion in
          pending.withLock { $0.append { _ in completion(.success(value &+ 1)) } }
        }
      }
    }
    let recorded = probe.recording(chain)
    let before = probe.count()
    let delivered = Mutex(0)
    recorded.run(some: { value in delivered.withLock { $0 = value } })
    var waits = 0
    while let next = pending.withLock({ $0.popLast() }) {
      #expect(probe.count() == before + 1)  // one reference, handed from each waiter to the next
      next(.success(0))
      waits += 1
    }
    #expect(waits == 10)
    #expect(delivered.withLock { $0 } == 10)
    #expect(probe.during.withLock { $0 } == before + 1)  // the last input owns that reference while it runs
    #expect(probe.count() == before)
  }
}
