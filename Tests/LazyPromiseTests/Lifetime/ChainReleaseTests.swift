import LazyPromise
import LazyPromiseTestSupport
import Testing

/// A stage owns the stage upstream of it, and a chain is released by a walk that takes each link its predecessor
/// holds alone. These tests follow one token per stage: every stage is freed once, a stage that another promise
/// still holds is left to it (and still runs), and nothing is freed early or kept.
@Suite("A chain's stages are freed once, when the last promise that holds them lets go")
struct ChainReleaseTests {
  /// `count` stages over `upstream`, of every kind that owns its upstream: value, `Result` and promise `then`s, an
  /// error operator and an operator stage (`retry`). Each captures a token of its own, counted in `live`.
  static func stages(_ count: Int, over upstream: Promise<Int, TestError>, live: Counter) -> Promise<Int, TestError> {
    var promise = upstream
    for index in 0..<count {
      let token = LiveToken(live: live, peak: Counter())
      switch index % 5 {
      case 0: promise = promise.then { value in withExtendedLifetime(token) { value + 1 } }
      case 1: promise = promise.then { value in withExtendedLifetime(token) { .success(value + 1) } }
      case 2: promise = promise.then { value in withExtendedLifetime(token) { Promise(value: value + 1) } }
      case 3: promise = promise.mapError { error in withExtendedLifetime(token) { error } }
      default: promise = promise.retry(1, if: { _ in withExtendedLifetime(token) { false } }).then { $0 + 1 }
      }
    }
    return promise
  }

  /// Runs `promise` to its synchronous result.
  static func result(of promise: Promise<Int, TestError>) -> Result<Int, TestError>? {
    let delivered = Recorder<Result<Int, TestError>>()
    promise.run { delivered.append($0) }
    return delivered.all.first
  }

  @Test("a dropped chain of 1,000 stages of every kind frees each stage once", arguments: [true, false])
  func droppedChain(fromTask: Bool) {
    let live = Counter()
    do {
      let root = fromTask ? Promise<Int, TestError> { $0(.success(0)) } : Promise(value: 0)
      let chain = Self.stages(1_000, over: root, live: live)
      #expect(live.current == 1_000)
      #expect(Self.result(of: chain) == .success(800))  // four stages in five add one
    }
    #expect(live.current == 0)
  }

  @Test("a branch dropped before its shared base leaves the base whole; the base is freed with its last holder")
  func branchDroppedFirst() {
    let live = Counter()
    let baseLive = Counter()
    var base: Promise<Int, TestError>? = Self.stages(300, over: Promise(value: 0), live: baseLive)
    do {
      let left = Self.stages(300, over: base!, live: live)
      let right = Self.stages(300, over: base!, live: live)
      #expect(Self.result(of: left) == .success(480))
      #expect(Self.result(of: right) == .success(480))
    }
    #expect(live.current == 0)  // both branches are gone
    #expect(baseLive.current == 300)  // the base is still held
    #expect(Self.result(of: base!) == .success(240))
    base = nil
    #expect(baseLive.current == 0)
  }

  @Test("a base dropped before its branches is freed with the last branch, and each branch still runs")
  func baseDroppedFirst() {
    let live = Counter()
    let baseLive = Counter()
    var left: Promise<Int, TestError>?
    var right: Promise<Int, TestError>?
    do {
      let base = Self.stages(300, over: Promise(value: 0), live: baseLive)
      left = Self.stages(300, over: base, live: live)
      right = Self.stages(300, over: base, live: live)
    }
    #expect(baseLive.current == 300)
    #expect(Self.result(of: left!) == .success(480))
    left = nil
    #expect(live.current == 300)  // the right branch's stages
    #expect(baseLive.current == 300)  // still the right branch's upstream
    #expect(Self.result(of: right!) == .success(480))
    right = nil
    #expect(live.current == 0)
    #expect(baseLive.current == 0)
  }
}
