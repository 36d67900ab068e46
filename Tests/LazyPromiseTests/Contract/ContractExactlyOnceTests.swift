import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clauses 4 (exactly once) and 5 (lost callbacks).
@Suite("Contract 4 and 5 — exactly once, lost callbacks")
struct ContractExactlyOnceTests {
  init() { DiagnosticsCollector.install() }

  @Test("4.1 each run delivers exactly one result")
  func eachRunDeliversExactlyOnce() async {
    await confirmation(expectedCount: 1) { delivered in
      _ = Promise<Int, TestError>(value: 1).map { $0 + 1 }.run { _ in delivered() }
    }
  }

  @Test("4.2 a second completion is never delivered and is reported with the creation site")
  func secondCompletionIsIgnoredAndReported() async {
    let results = Recorder<Result<Int, TestError>>()
    let promise = Promise<Int, TestError> { completion in
      completion(.success(1))
      completion(.success(2))
      completion(.failure(.first))
    }
    let madeAt = site(#fileID, #line - 5)
    promise.map { $0 * 10 }.run { results.append($0) }
    #expect(results.all == [.success(10)])
    #if DEBUG
      let reports = DiagnosticsCollector.reports(at: madeAt)
      #expect(reports.count == 2)
      #expect(reports.allSatisfy { $0.kind == .completedMoreThanOnce })
    #endif
  }

  @Test("4.3 completions racing from two threads deliver once: the first wins")
  func racingCompletionsDeliverOnce() async {
    for iteration in 0..<1_000 {
      let delivered = Counter()
      let promise = Promise<Int, TestError> { completion in
        DispatchQueue.concurrentPerform(iterations: 2) { thread in completion(.success(thread)) }
      }
      let results = await withCheckedContinuation { continuation in
        promise.run { result in
          delivered.increment()
          continuation.resume(returning: result)
        }
      }
      #expect(delivered.current == 1, "iteration \(iteration)")
      #expect(results == .success(0) || results == .success(1))
    }
  }

  #if DEBUG
    @Test("5.1 a task that releases its completion without calling it is reported with the creation site")
    func releasedCompletionIsReported() {
      let promise = Promise<Int, TestError> { completion in
        _ = completion  // dropped without being called
      }
      let madeAt = site(#fileID, #line - 3)
      promise.then { $0 + 1 }.run { _ in Issue.record("a dropped completion cannot deliver") }
      let reports = DiagnosticsCollector.reports(at: madeAt)
      #expect(reports.map(\.kind) == [.completionReleasedWithoutBeingCalled])
      #expect(reports.first?.description.contains("released without being called") == true)
    }

    @Test("5.2 a completion called later is not reported as lost")
    func completionCalledLaterIsNotReported() async {
      let promise = Promise<Int, TestError> { completion in
        DispatchQueue.global().async { completion(.success(1)) }
      }
      let madeAt = site(#fileID, #line - 3)
      #expect(await promise.result == .success(1))
      #expect(DiagnosticsCollector.reports(at: madeAt).isEmpty)
    }
  #endif
}
