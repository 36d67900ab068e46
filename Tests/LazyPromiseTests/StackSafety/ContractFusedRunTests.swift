import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 6.6: a run drives consecutive value stages (`then`, `map`, `flatMap`) in segments of up to 64
/// direct calls. Each test puts the edges of segments where a run could go wrong: at the first and last stage of a
/// segment, across segment boundaries, and where a stage's promise makes the rest of a segment wait.
@Suite("Contract 6.6 — fused runs of value stages")
struct ContractFusedRunTests {
  /// Lengths around the segment boundaries (64 stages, aligned to depths that are multiples of 64).
  static let lengths = [1, 2, 3, 63, 64, 65, 66, 127, 128, 129, 200, 1_000]

  /// `stages` stages of `+ 1`, cycling through the three `then` shapes and `map`, after `root`.
  static func chain(_ root: Promise<Int, TestError>, _ stages: Int) -> Promise<Int, TestError> {
    var promise = root
    for index in 0..<stages {
      switch index % 4 {
      case 0: promise = promise.then { $0 + 1 }
      case 1: promise = promise.then { .success($0 + 1) }
      case 2: promise = promise.then { Promise(value: $0 + 1) }
      default: promise = promise.map { $0 + 1 }
      }
    }
    return promise
  }

  @Test("6.6 a chain of any length around a segment boundary delivers once, from a known value", arguments: lengths)
  func knownRoot(stages: Int) {
    let delivered = Recorder<Result<Int, TestError>>()
    let handle = Self.chain(Promise(value: 0), stages).run { delivered.append($0) }
    #expect(delivered.all == [.success(stages)])
    #expect(handle.isDelivered)
  }

  @Test(
    "6.6 a chain of any length around a segment boundary delivers once, from a task completed later",
    arguments: lengths)
  func pendingRoot(stages: Int) {
    let task = ManualTask<Int, TestError>()
    let delivered = Recorder<Result<Int, TestError>>()
    Self.chain(task.promise, stages).run { delivered.append($0) }
    #expect(delivered.all.isEmpty)
    task.succeed(10)
    #expect(delivered.all == [.success(10 + stages)])
  }

  @Test("6.6 a chain completed from another thread delivers once, there", arguments: [65, 1_000])
  func rootCompletedOnAnotherThread(stages: Int) async {
    let queue = DispatchQueue(label: "completing")
    let root = Promise<Int, TestError> { completion in queue.async { completion(.success(1)) } }
    let value = await withCheckedContinuation { continuation in
      Self.chain(root, stages).run { continuation.resume(returning: $0) }
    }
    #expect(value == .success(1 + stages))
  }

  @Test(
    "6.6 a stage whose promise completes later makes the rest of its segment wait, wherever it is",
    arguments: [0, 1, 30, 62, 63, 64, 65, 99])
  func joinInsideASegment(position: Int) {
    let inner = ManualTask<Int, TestError>()
    var promise = Promise<Int, TestError>(value: 0)
    for index in 0..<100 {
      promise = index == position ? promise.then { _ in inner.promise } : promise.then { $0 + 1 }
    }
    let delivered = Recorder<Result<Int, TestError>>()
    promise.run { delivered.append($0) }
    #expect(inner.starts.current == 1)
    #expect(delivered.all.isEmpty)
    inner.succeed(1_000)
    #expect(delivered.all == [.success(1_000 + 99 - position)])
  }

  @Test("6.6 a run waiting inside a segment is cancelled there: no later stage runs, nothing is delivered")
  func cancelWhileASegmentWaits() {
    let inner = ManualTask<Int, TestError>()
    let later = Counter()
    let delivered = Counter()
    var promise = Promise<Int, TestError>(value: 0)
    for index in 0..<100 {
      promise =
        index == 40
        ? promise.then { _ in inner.promise }
        : promise.then { value in
          if index > 40 { later.increment() }
          return value + 1
        }
    }
    let handle = promise.run { _ in delivered.increment() }
    handle.cancel()
    #expect(inner.cancels.current == 1)
    inner.succeed(1)
    #expect(later.current == 0)
    #expect(delivered.current == 0)
    inner.forget()  // the waiting segment holds its stages, and one of them this task
  }

  @Test("6.6 a run cancelled by one of its stages stops at the next stage, inside a segment")
  func cancelFromAStage() {
    let handleBox = Mutex<RunHandle?>(nil)
    let task = ManualTask<Int, TestError>()
    let ran = Recorder<Int>()
    var promise = task.promise
    for index in 0..<100 {
      promise = promise.then { value in
        ran.append(index)
        if index == 20 { handleBox.withLock { $0 }?.cancel() }
        return value + 1
      }
    }
    let delivered = Counter()
    let handle = promise.run { _ in delivered.increment() }
    handleBox.withLock { $0 = handle }
    task.succeed(0)
    #expect(ran.all == Array(0...20))
    #expect(delivered.current == 0)
    #expect(handle.isCancelled)
    task.forget()  // the segment after the cancel waits for good, holding its stages, the first one's task among them
  }

  @Test("6.6 a failure anywhere skips every later stage, in its segment and the next", arguments: [0, 50, 63, 64, 65])
  func failureSkipsTheRest(position: Int) {
    let after = Counter()
    var promise = Promise<Int, TestError>(value: 0)
    for index in 0..<150 {
      if index == position {
        promise = promise.then { _ in Result<Int, TestError>.failure(.code(index)) }
      } else {
        promise = promise.then { value in
          if index > position { after.increment() }
          return value + 1
        }
      }
    }
    let delivered = Recorder<Result<Int, TestError>>()
    promise.run { delivered.append($0) }
    #expect(delivered.all == [.failure(.code(position))])
    #expect(after.current == 0)
  }

  @Test("6.6 chains that share stages run each their own way; running twice runs every stage twice")
  func sharedStages() {
    let calls = Counter()
    var shared = Promise<Int, TestError>(value: 0)
    for _ in 0..<70 {
      shared = shared.then { value in
        calls.increment()
        return value + 1
      }
    }
    let longer = Self.chain(shared, 100)
    let shorter = shared.map { $0 * 2 }
    let results = Recorder<Result<Int, TestError>>()
    longer.run { results.append($0) }
    shorter.run { results.append($0) }
    shared.run { results.append($0) }
    longer.run { results.append($0) }
    #expect(results.all == [.success(170), .success(140), .success(70), .success(170)])
    #expect(calls.current == 70 * 4)
  }

  @Test("6.6 value stages between error stages and operators run in their own segments")
  func mixedWithOtherStages() {
    var promise = Promise<Int, TestError>(value: 0)
    for index in 0..<300 {
      switch index % 50 {
      case 10: promise = promise.mapError { _ in TestError.second }
      case 20: promise = promise.recover { _ in -1 }.setFailureType(to: TestError.self)
      case 30: promise = promise.ensure {}
      default: promise = promise.then { $0 + 1 }
      }
    }
    let delivered = Recorder<Result<Int, TestError>>()
    promise.run { delivered.append($0) }
    #expect(delivered.all == [.success(300 - 6 * 3)])  // three stages in 50 add nothing
  }

  @Test("6.6 a run that waited inside segments frees everything it held once it delivers")
  func waitingRunsAreReleased() {
    let live = Counter()
    let mailbox = Mutex<Promise<Int, TestError>.Completion?>(nil)
    let inner = Promise<Int, TestError> { completion in mailbox.withLock { $0 = completion } }
    let delivered = Recorder<Result<Int, TestError>>()
    do {
      let token = LiveToken(live: live, peak: Counter())
      var promise = Promise<Int, TestError>(value: 0)
      for index in 0..<200 {
        promise =
          index == 100
          ? promise.then { _ in inner }
          : promise.then { value in withExtendedLifetime(token) { value + 1 } }
      }
      promise.run { delivered.append($0) }
    }
    #expect(live.current == 1)  // the run holds its stages while it waits
    mailbox.withLock { $0.take() }?(.success(0))
    #expect(delivered.all == [.success(99)])
    #expect(live.current == 0)
  }

  @Test(
    "6.6 a run waiting for the promise its last stage returned holds none of its stages, and still delivers",
    arguments: [64, 200])
  func waitAtTheLastStageHoldsNoStage(stages: Int) {
    let live = Counter()
    let inner = ManualTask<Int, TestError>()  // keeps its completion handler, even after calling it
    let delivered = Recorder<Result<Int, TestError>>()
    do {
      let token = LiveToken(live: live, peak: Counter())
      var promise = Promise<Int, TestError>(value: 0)
      for _ in 1..<stages {
        promise = promise.then { value in withExtendedLifetime(token) { value + 1 } }
      }
      promise = promise.then { value in withExtendedLifetime(token) { inner.promise.then { $0 + value } } }
      promise.run { delivered.append($0) }
    }
    #expect(live.current == 0)  // every stage has run, and the chain was dropped
    #expect(delivered.all.isEmpty)
    inner.succeed(1_000)
    #expect(delivered.all == [.success(1_000 + stages - 1)])
    #expect(live.current == 0)
  }
}
