import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

@testable import LazyPromise

/// What a test tracer saw: one line per call, `start <stage>` or `end <stage> <outcome>`.
private final class TraceLog: PromiseTracer {
  private let lines = Mutex<[String]>([])
  private let nextSpan = Atomic<Int>(0)
  private let ends = Mutex<[Int]>([])

  func stageStarted(_ stage: PromiseStage) -> Int {
    lines.withLock { $0.append("start \(stage.kind) \(stage.line)") }
    return nextSpan.add(1, ordering: .relaxed).newValue
  }

  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Int) {
    lines.withLock { $0.append("end \(stage.kind) \(stage.line) \(outcome)") }
    ends.withLock { $0.append(span) }
  }

  var all: [String] { lines.withLock { $0 } }
  var endedSpans: [Int] { ends.withLock { $0 } }
}

/// A tracer that needs no span (`Span` is `Void` by default).
private final class StageCounter: PromiseTracer {
  private let count = Atomic<Int>(0)

  func stageStarted(_ stage: PromiseStage) {}

  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Void) {
    count.add(1, ordering: .relaxed)
  }

  var ended: Int { count.load(ordering: .relaxed) }
}

@Sendable private func double(_ value: Int) -> Int { value * 2 }

@Suite("Tracing: stages built inside withTracer report their start and outcome — issue 11")
struct PromiseTracerTests {
  @Test("18.2, 18.4 each stage reports its kind, line and outcome, in run order")
  func eachStageReportsItsKindLineAndOutcomeInRunOrder() async {
    let log = TraceLog()
    let line = #line
    let chain = PromiseTracing.withTracer(log) {
      Promise<Int, TestError>(value: 1)
        .then { $0 + 1 }  // line + 3
        .then(double)  // line + 4
        .map { $0 + 1 }  // line + 5
        .attemptMap { .success($0 * 10) }  // line + 6
        .flatMap { Promise(value: $0 + 1) }  // line + 7
        .then { x -> Result<Int, TestError> in .success(x) }  // line + 8
        .tryMap { x throws(TestError) in x - 1 }  // line + 9
    }
    #expect(log.all.isEmpty, "building reports nothing: tracing starts when a run reaches a stage")
    #expect(await chain.result == .success(50))
    let expected = [
      ("then", 3), ("then", 4), ("map", 5), ("attemptMap", 6), ("flatMap", 7), ("then", 8), ("tryMap", 9),
    ].flatMap { kind, offset in
      ["start \(kind) \(line + offset)", "end \(kind) \(line + offset) succeeded"]
    }
    #expect(log.all == expected)
  }

  @Test("18.4 the site is the file and line where the stage is written")
  func theSiteIsWhereTheStageIsWritten() async {
    let stages = Mutex<[String]>([])
    struct Sites: PromiseTracer {
      let stages: @Sendable (String) -> Void
      func stageStarted(_ stage: PromiseStage) { stages("\(stage)") }
      func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Void) {}
    }
    let line = #line
    let chain = PromiseTracing.withTracer(Sites { description in stages.withLock { $0.append(description) } }) {
      Promise<Int, Never>(value: 1).map { $0 }  // line + 2
    }
    _ = await chain.value
    #expect(stages.withLock { $0 } == ["map at LazyPromiseTests/PromiseTracerTests.swift:\(line + 2)"])
  }

  @Test("18.2, 18.3 a failure ends its stage as failed, and the skipped stages report nothing")
  func aFailureEndsItsStageAsFailedAndTheSkippedStagesReportNothing() async {
    let log = TraceLog()
    let line = #line
    let chain = PromiseTracing.withTracer(log) {
      Promise<Int, TestError>(value: 1)
        .then { _ in Result<Int, TestError>.failure(.first) }  // line + 3
        .map { $0 + 1 }  // line + 4: skipped
        .tryMap { x throws(TestError) in x }  // line + 5: skipped
    }
    #expect(await chain.result == .failure(.first))
    #expect(log.all == ["start then \(line + 3)", "end then \(line + 3) failed(first)"])
  }

  @Test("18.2 a stage returning a promise ends when that promise delivers")
  func aStageReturningAPromiseEndsWhenThatPromiseDelivers() async {
    let log = TraceLog()
    let task = ManualTask<Int, TestError>()
    let chain = PromiseTracing.withTracer(log) {
      Promise<Int, TestError>(value: 1).flatMap { _ in task.promise }
    }
    let delivered = Recorder<Result<Int, TestError>>()
    chain.run { delivered.append($0) }
    #expect(log.all.count == 1, "started, not ended: the inner promise is pending")
    task.complete(.failure(.second))
    #expect(log.all.last?.hasSuffix("failed(second)") == true)
    #expect(delivered.all == [.failure(.second)])
  }

  @Test("18.2, 18.3 cancelling the run ends a pending stage once, as cancelled")
  func cancellingTheRunEndsAPendingStageAsCancelledOnce() {
    let log = TraceLog()
    let task = ManualTask<Int, TestError>()
    let chain = PromiseTracing.withTracer(log) {
      Promise<Int, TestError>(value: 1).then { _ in task.promise }.map { $0 + 1 }
    }
    let handle = chain.run { _ in Issue.record("a cancelled run delivers nothing") }
    handle.cancel()
    handle.cancel()
    task.complete(.success(5))
    #expect(log.all.count == 2)
    #expect(log.all.last?.hasSuffix("cancelled") == true)
    #expect(task.cancels.current == 1, "cancelling the run still cancels the inner promise's work")
  }

  @Test("18.2 a run cancelled while the stage's function runs ends that stage once, as cancelled")
  func cancellingFromInsideTheStageEndsItAsCancelled() {
    let log = TraceLog()
    let upstream = ManualTask<Int, TestError>()
    let inner = ManualTask<Int, TestError>()
    let handle = Mutex<RunHandle?>(nil)
    let chain = PromiseTracing.withTracer(log) {
      upstream.promise.flatMap { _ in
        handle.withLock { $0?.cancel() }
        return inner.promise
      }
    }
    handle.withLock { $0 = chain.run { _ in Issue.record("a cancelled run delivers nothing") } }
    upstream.complete(.success(1))
    #expect(inner.starts.current == 0, "a cancelled run does not start the promise the stage returned")
    #expect(log.all.count == 2)
    #expect(log.all.last?.hasSuffix("cancelled") == true)
  }

  @Test("18.2 every start is ended once, with its own span")
  func everyStartIsEndedOnceWithItsOwnSpan() async {
    let log = TraceLog()
    let chain = PromiseTracing.withTracer(log) {
      (0..<50).reduce(Promise<Int, Never>(value: 0)) { promise, _ in
        promise.then { $0 + 1 }.flatMap { Promise(value: $0) }
      }
    }
    #expect(await chain.value == 50)
    #expect(log.endedSpans.sorted() == Array(1...100))
  }

  @Test("18.1 stages built outside the body are not traced")
  func stagesBuiltOutsideTheBodyAreNotTraced() async {
    let log = TraceLog()
    let before = Promise<Int, Never>(value: 1).map { $0 + 1 }
    let traced = PromiseTracing.withTracer(log) { before.map { $0 * 3 } }
    let after = traced.map { $0 - 1 }
    #expect(await after.value == 5)
    #expect(log.all.count == 2, "only the stage built inside the body reports")
  }

  @Test("18.1 a traced chain is traced on every run")
  func aTracedChainIsTracedOnEveryRun() async {
    let counter = StageCounter()
    let chain = PromiseTracing.withTracer(counter) { Promise<Int, Never>(value: 1).map { $0 + 1 }.then(double) }
    for _ in 0..<3 { #expect(await chain.value == 4) }
    #expect(counter.ended == 6)
  }

  @Test("18.1 an inner withTracer replaces the outer one for its body")
  func anInnerWithTracerReplacesTheOuterOneForItsBody() async {
    let outer = StageCounter()
    let inner = StageCounter()
    let chain = PromiseTracing.withTracer(outer) {
      let first = Promise<Int, Never>(value: 1).map { $0 + 1 }
      let second = PromiseTracing.withTracer(inner) { first.map { $0 + 1 }.map { $0 + 1 } }
      return second.map { $0 + 1 }
    }
    #expect(await chain.value == 5)
    #expect(outer.ended == 2)
    #expect(inner.ended == 2)
  }

  @Test("18.1 withTracer returns and throws what its body does")
  func withTracerReturnsAndThrowsWhatItsBodyDoes() {
    #expect(PromiseTracing.withTracer(StageCounter()) { 42 } == 42)
    #expect(throws: TestError.second) {
      try PromiseTracing.withTracer(StageCounter()) { () throws(TestError) -> Int in throw .second }
    }
  }

  @Test("18.2 a 100,000-stage traced chain runs on a 512 KiB thread")
  func aLongTracedChainRunsInBoundedStack() async {
    await onThread(stackSize: 512 * 1024) {
      let counter = StageCounter()
      let chain = PromiseTracing.withTracer(counter) {
        (0..<100_000).reduce(Promise<Int, Never>(value: 0)) { promise, index in
          index % 2 == 0 ? promise.map { $0 + 1 } : promise.flatMap { Promise(value: $0 + 1) }
        }
      }
      let total = Mutex(0)
      chain.run { value in total.withLock { $0 = value } }
      #expect(total.withLock { $0 } == 100_000)
      #expect(counter.ended == 100_000)
    }
  }

  @Test(
    "18.5 off, a stage is the plain one: built outside every body while another thread's body is open, it reports nothing"
  )
  func aStageBuiltWithTracingOffIsThePlainStage() {
    let counter = StageCounter()
    let opened = DispatchSemaphore(value: 0)
    let close = DispatchSemaphore(value: 0)
    let closed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      PromiseTracing.withTracer(counter) {
        opened.signal()
        close.wait()
      }
      closed.signal()
    }
    opened.wait()
    // The one global a stage reads when it is built: it says a body is open somewhere, not that this one is traced.
    #expect(_isTracing())
    let chain = Promise<Int, Never>(value: 1).map { $0 + 1 }.then(double).flatMap { Promise(value: $0 + 1) }
    close.signal()
    closed.wait()
    let total = Mutex(0)
    chain.run { value in total.withLock { $0 = value } }
    chain.run { value in total.withLock { $0 += value } }
    #expect(total.withLock { $0 } == 10)
    #expect(counter.ended == 0)
  }
}

/// The Tracing guide's first example, as written there.
private struct StageTimer: PromiseTracer {
  func stageStarted(_ stage: PromiseStage) -> ContinuousClock.Instant { .now }

  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span start: ContinuousClock.Instant) {
    print("\(stage): \(outcome) after \(start.duration(to: .now))")
  }
}

@Suite("Tracing guide examples")
struct PromiseTracerGuideTests {
  @Test("18.1 the Tracing guide's StageTimer traces a chain built inside withTracer, which still delivers its value")
  func theGuidesStageTimerTracesAChain() async {
    let chain = PromiseTracing.withTracer(StageTimer()) {
      Promise<Int, Never>(value: 1).then { $0 + 1 }.map { $0 * 2 }
    }
    #expect(await chain.value == 4)
  }
}
