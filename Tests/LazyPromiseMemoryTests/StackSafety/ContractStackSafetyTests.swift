import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 6: stack safety. Each case runs on the main thread and on a 512 KiB thread.
@Suite("Contract 6 — stack safety", .serialized)
struct ContractStackSafetyTests {
  static let stages = 1_000_000
  static let smallStack = 512 * 1024

  static func longChain(_ stages: Int) -> Promise<Int, TestError> {
    var promise = Promise<Int, TestError> { $0(.success(0)) }
    for _ in 0..<stages { promise = promise.then { $0 + 1 } }
    return promise
  }

  static func runLongChain() -> Int? {
    let delivered = Recorder<Int>()
    longChain(stages).run(some: { delivered.append($0) }, none: { _ in })
    return delivered.all.count == 1 ? delivered.all[0] : nil
  }

  /// A loop written as recursion: each step completes synchronously, and `live` counts the steps in memory.
  static func countDown(_ n: Int, live: Counter, peak: Counter) -> Promise<Int, TestError> {
    let token = LiveToken(live: live, peak: peak)
    return Promise<Int, TestError> { completion in
      withExtendedLifetime(token) { completion(.success(n)) }
    }
    .then { n in n == 0 ? Promise(value: 0) : countDown(n - 1, live: live, peak: peak) }
  }

  static func runCountDown() -> (Int?, peak: Int, live: Int) {
    let live = Counter()
    let peak = Counter()
    let delivered = Recorder<Int>()
    countDown(stages, live: live, peak: peak).run(some: { delivered.append($0) }, none: { _ in })
    return (delivered.all.first, peak.current, live.current)
  }

  @Test("6.1 a 1,000,000-stage chain runs and delivers on the main thread")
  @MainActor
  func millionStageChainRunsOnMainThread() {
    #expect(Self.runLongChain() == Self.stages)
  }

  @Test("6.1 a 1,000,000-stage chain runs and delivers on a 512 KiB thread")
  func millionStageChainRunsOnSmallStack() async {
    let delivered = Recorder<Int?>()
    await onThread(stackSize: Self.smallStack) {
      delivered.append(Self.runLongChain())
    }
    #expect(delivered.all == [Self.stages])
  }

  @Test("6.2 a 1,000,000-stage chain is released without running, on the main thread")
  @MainActor
  func millionStageChainDropsOnMainThread() {
    var promise: Promise<Int, TestError>? = Self.longChain(Self.stages)
    promise = nil
    #expect(promise == nil)
  }

  @Test("6.2 a 1,000,000-stage chain is released without running, on a 512 KiB thread")
  func millionStageChainDropsOnSmallStack() async {
    let finished = Counter()
    await onThread(stackSize: Self.smallStack) {
      var promise: Promise<Int, TestError>? = Self.longChain(Self.stages)
      promise = nil
      if promise == nil { finished.increment() }
    }
    #expect(finished.current == 1)
  }

  @Test("6.2 a 1,000,000-stage chain that has run is released afterwards")
  func millionStageChainIsReleasedAfterRunning() async {
    let live = Counter()
    await onThread(stackSize: Self.smallStack) {
      let token = LiveToken(live: live, peak: Counter())
      var promise = Promise<Int, TestError> { completion in withExtendedLifetime(token) { completion(.success(0)) } }
      for _ in 0..<Self.stages { promise = promise.then { $0 + 1 } }
      promise.run { _ in }
    }
    #expect(live.current == 0)
  }

  @Test("6.3 a recursive loop of 1,000,000 iterations completes in bounded memory, on the main thread")
  @MainActor
  func millionIterationLoopOnMainThread() {
    let (value, peak, live) = Self.runCountDown()
    #expect(value == 0)
    #expect(peak < 2_000, "steps alive at once must not grow with the iterations")
    #expect(live == 0)
  }

  @Test("6.3 a recursive loop of 1,000,000 iterations completes in bounded memory, on a 512 KiB thread")
  func millionIterationLoopOnSmallStack() async {
    let outcome = Recorder<Int>()
    await onThread(stackSize: Self.smallStack) {
      let (value, peak, live) = Self.runCountDown()
      outcome.append(value ?? -1)
      outcome.append(peak)
      outcome.append(live)
    }
    let values = outcome.all
    #expect(values[0] == 0)
    #expect(values[1] < 2_000, "steps alive at once must not grow with the iterations")
    #expect(values[2] == 0)
  }
}
