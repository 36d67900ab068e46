import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clauses 2.8–2.9: threads. Run again under the thread sanitizer by CI (its test target).
@Suite("Promise thread safety — contract 2.8–2.9")
struct PromiseThreadSafetyConcurrencyTests {
  @Test("2.8 10,000 concurrent runs of one promise from many threads each deliver exactly once")
  func concurrentRunsEachDeliverOnce() async {
    let runs = 10_000
    let promise = later(1).map { $0 + 1 }.then { value in later(value * 2) }.then { value -> Result<Int, TestError> in
      .success(value + 1)
    }
    let deliveries = await runConcurrently(promise, runs: runs)
    #expect(deliveries.allSatisfy { $0 == [.success(5)] })
  }

  @Test("2.9 cancelling while the task completes on another thread delivers exactly once or not at all")
  func cancelRacingCompletionDeliversAtMostOnce() async {
    for _ in 0..<2_000 {
      let delivered = Counter()
      let cancelled = Counter()
      let finished = Counter()
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let promise = Promise<Int, TestError> { completion, onCancel in
          onCancel {
            cancelled.increment()
          }
          DispatchQueue.global().async {
            completion(.success(1))
            if finished.increment() == 2 { done.resume() }
          }
        }
        let handle = promise.map { $0 + 1 }.run { _ in delivered.increment() }
        DispatchQueue.global().async {
          handle.cancel()
          #expect(handle.isCancelled != handle.isDelivered)
          if finished.increment() == 2 { done.resume() }
        }
      }
      #expect(delivered.current + min(cancelled.current, 1) >= 1 || delivered.current == 0)
      #expect(delivered.current <= 1)
    }
  }
}
