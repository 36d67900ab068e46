import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 8 without a scheduler argument: `delay`, `timeout` and `retry(_:backoff:)` wait on
/// `DispatchQueue.global()` (issue 14: `slow.timeout(.seconds(1), error: .timedOut)` compiles as a newcomer writes it).
@Suite("Promise time on the default scheduler — contract 8")
struct PromiseTimeDefaultSchedulerTests {
  @Test("8.1 delay without a scheduler delivers the value")
  func delayWithoutASchedulerDelivers() async {
    #expect(await Promise<Int, TestError>(value: 1).delay(.milliseconds(1)).result == .success(1))
  }

  @Test("8.2 timeout without a scheduler fails with the given error when the work never completes, and cancels it")
  func timeoutWithoutASchedulerFails() async {
    let task = ManualTask<Int, TestError>()
    #expect(await task.promise.timeout(.milliseconds(5), error: .second).result == .failure(.second))
    // The timer starts before the work does; on a loaded machine it can fire first, and then the work never starts.
    #expect(task.starts.current <= 1)
    #expect(task.cancels.current == task.starts.current, "work that started is cancelled")
  }

  @Test("8.2 timeout without a scheduler passes a value that arrives in time")
  func timeoutWithoutASchedulerPassesAValue() async {
    let promise = Promise<Int, Never>(value: 3).setFailureType(to: TestError.self).timeout(.seconds(60), error: .first)
    #expect(await promise.result == .success(3))
  }

  @Test("8.6 retry with a backoff and no scheduler runs the work again until it succeeds")
  func retryWithoutASchedulerRunsAgain() async {
    let attempts = Counter()
    let flaky = Promise<Int, TestError> { completion in
      attempts.increment()
      completion(attempts.current < 3 ? .failure(.first) : .success(attempts.current))
    }
    let backoff = RetryBackoff.constant(.milliseconds(1))
    #expect(await flaky.retry(5, backoff: backoff).result == .success(3))
  }
}
