import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clauses 4 and 5 where a fused segment waits for a task (`Internal/Stages/Waiter.swift`): the waiter, not
/// a stage's own continuation, admits the task's result, so it is the one that refuses and reports a second call,
/// and reports a completion handler released without being called. `ContractExactlyOnceTests` pins the same
/// clauses for a stage run on its own.
/// Keeps one completion handler until a test lets go of it; touched by one thread only.
private final class Keeper: @unchecked Sendable {
  var completion: (@Sendable (Result<Int, TestError>) -> Void)?
}

@Suite("Contract 4 and 5 — a waiting segment admits its task's result once")
struct WaiterDiagnosticsTests {
  init() { DiagnosticsCollector.install() }

  /// Two value stages after the task: they run as one segment, which waits for the task through a waiter.
  private func segment(_ task: Promise<Int, TestError>) -> Promise<Int, TestError> {
    task.map { $0 + 1 }.map { $0 * 10 }
  }

  @Test("4.2 a segment's task completing twice delivers once, and the second call is reported")
  func segmentTaskCompletingTwice() {
    let results = Recorder<Result<Int, TestError>>()
    let task = Promise<Int, TestError> { completion in
      completion(.success(1))
      completion(.success(2))
    }
    let madeAt = site(#fileID, #line - 4)
    segment(task).run { results.append($0) }
    #expect(results.all == [.success(20)])
    #if DEBUG
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.completedMoreThanOnce])
    #endif
  }

  @Test("4.2 a promise joined inside a segment completing twice delivers once, and the second call is reported")
  func joinedTaskCompletingTwice() {
    let results = Recorder<Result<Int, TestError>>()
    let madeAt = site(#fileID, #line + 3)
    let chain = Promise<Int, TestError>(value: 1).map { $0 + 1 }
      .then { value in
        Promise<Int, TestError> { completion in
          completion(.success(value))
          completion(.success(value + 100))
        }
      }
      .map { $0 * 10 }
    chain.run { results.append($0) }
    #expect(results.all == [.success(20)])
    #if DEBUG
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.completedMoreThanOnce])
    #endif
  }

  /// Where a segment's waiter runs: the run's last segment, a segment behind a join, and an input of `all` (under a
  /// run handle of its own, which `all` lets go of once the input has delivered).
  enum Shape: CaseIterable, Sendable { case segment, joined, inputOfAll }

  @Test(
    "4.2 a handler that completed in its frame and is called again after the run let go of everything is refused",
    arguments: Shape.allCases)
  func keptHandlerCalledAfterTheRun(shape: Shape) {
    // Under the address sanitizer (CI), a waiter that read anything of its run after it was freed would fail here.
    let results = Recorder<Result<[Int], TestError>>()
    let keeper = Keeper()
    do {
      let task = Promise<Int, TestError> { completion in
        completion(.success(1))  // in the frame that made the waiter
        keeper.completion = completion
      }
      let chain: Promise<[Int], TestError> =
        switch shape {
        case .segment: segment(task).map { [$0] }
        case .joined: Promise(value: 0).map { $0 + 1 }.then { _ in task }.map { $0 * 10 }.map { [$0] }
        case .inputOfAll: Promise<Int, TestError>.all([segment(task)])
        }
      _ = chain.run { results.append($0) }
    }
    let expected: Result<[Int], TestError> = .success([shape == .joined ? 10 : 20])
    #expect(results.all == [expected])
    keeper.completion?(.success(2))
    keeper.completion?(.failure(.first))
    keeper.completion = nil
    #expect(results.all == [expected])
  }

  @Test("4.3 a segment's task completing from two threads at once delivers once")
  func segmentTaskRacingCompletions() async {
    for iteration in 0..<500 {
      let delivered = Counter()
      let task = Promise<Int, TestError> { completion in
        DispatchQueue.concurrentPerform(iterations: 2) { thread in completion(.success(thread)) }
      }
      let result = await withCheckedContinuation { continuation in
        segment(task).run { result in
          delivered.increment()
          continuation.resume(returning: result)
        }
      }
      #expect(delivered.current == 1, "iteration \(iteration)")
      #expect(result == .success(10) || result == .success(20))
    }
  }

  #if DEBUG
    @Test("5.1 a segment's task that releases its completion without calling it is reported")
    func segmentTaskDroppingItsCompletion() {
      let task = Promise<Int, TestError> { completion in
        _ = completion  // dropped without being called
      }
      let madeAt = site(#fileID, #line - 3)
      segment(task).run { _ in Issue.record("a dropped completion cannot deliver") }
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.completionReleasedWithoutBeingCalled])
    }

    @Test("5.1 a promise joined inside a segment whose task drops its completion is reported")
    func joinedTaskDroppingItsCompletion() {
      let madeAt = site(#fileID, #line + 3)
      let chain = Promise<Int, TestError>(value: 1).map { $0 + 1 }
        .then { _ in
          Promise<Int, TestError> { completion in
            _ = completion  // dropped without being called
          }
        }
        .map { $0 * 10 }
      chain.run { _ in Issue.record("a dropped completion cannot deliver") }
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.completionReleasedWithoutBeingCalled])
    }

    @Test("5.1 a cancelled run's task that drops or later calls its completion is not reported")
    func cancelledRunIsNotReported() {
      let kept = Recorder<@Sendable (Result<Int, TestError>) -> Void>()
      let keeping = Promise<Int, TestError> { completion in kept.append(completion) }
      let keptAt = site(#fileID, #line - 1)
      let keeper = Keeper()
      let dropping = Promise<Int, TestError> { completion in keeper.completion = completion }
      let droppedAt = site(#fileID, #line - 1)
      segment(keeping).run { _ in Issue.record("a cancelled run delivers nothing") }.cancel()
      kept.all.forEach { $0(.success(1)) }  // called after the run was cancelled
      segment(dropping).run { _ in Issue.record("a cancelled run delivers nothing") }.cancel()
      keeper.completion = nil  // released after the run was cancelled
      #expect(DiagnosticsCollector.reports(at: keptAt).isEmpty)
      #expect(DiagnosticsCollector.reports(at: droppedAt).isEmpty)
    }

    @Test("5.2 a segment's task calling its completion later, from another thread, is not reported")
    func segmentTaskCompletingLater() async {
      let task = Promise<Int, TestError> { completion in
        DispatchQueue.global().async { completion(.success(1)) }
      }
      let madeAt = site(#fileID, #line - 3)
      #expect(await segment(task).result == .success(20))
      #expect(DiagnosticsCollector.reports(at: madeAt).isEmpty)
    }
  #endif
}
