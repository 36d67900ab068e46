import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 8.5 with the retries left: the two-argument `retry` predicate (issue 11: google/promises and
/// PromiseKit users expect to see how many attempts remain).
@Suite("retry with the number of retries left — contract 8.5")
struct PromiseRetryRemainingTests {
  @Test("8.5 the predicate sees the retries left after each failure, counting down to 1")
  func predicateSeesTheRetriesLeft() async {
    let seen = Recorder<Int>()
    let attempts = Counter()
    let failing = Promise<Int, TestError> { completion in
      attempts.increment()
      completion(.failure(.first))
    }
    let result = await failing.retry(3) { _, remaining in
      seen.append(remaining)
      return true
    }.result
    #expect(result == .failure(.first))
    #expect(seen.all == [3, 2, 1], "not asked once no retry is left")
    #expect(attempts.current == 4)
  }

  @Test("8.5 declining with retries left delivers that error at once")
  func decliningStopsEarly() async {
    let attempts = Counter()
    let failing = Promise<Int, TestError> { completion in
      attempts.increment()
      completion(.failure(.code(attempts.current)))
    }
    let result = await failing.retry(5) { _, remaining in remaining > 3 }.result
    #expect(result == .failure(.code(3)), "retried while 5 and 4 were left, declined at 3")
    #expect(attempts.current == 3)
  }

  @Test("8.6 with a backoff, the predicate sees the same count and a success ends the retries")
  func backoffVariantCountsDown() {
    let clock = VirtualScheduler()
    let seen = Recorder<Int>()
    let attempts = Counter()
    let results = Recorder<Result<Int, TestError>>()
    let flaky = Promise<Int, TestError> { completion in
      attempts.increment()
      completion(attempts.current < 3 ? .failure(.first) : .success(attempts.current))
    }
    flaky.retry(4, backoff: .constant(.seconds(1)), on: clock) { _, remaining in
      seen.append(remaining)
      return true
    }
    .run { results.append($0) }
    clock.advance(by: .seconds(5))
    #expect(results.all == [.success(3)])
    #expect(seen.all == [4, 3])
  }

  @Test("8.5 zero retries never asks the predicate")
  func zeroRetriesNeverAsks() async {
    let asked = Counter()
    let result = await Promise<Int, TestError>(error: .second).retry(0) { _, _ in
      asked.increment()
      return true
    }.result
    #expect(result == .failure(.second))
    #expect(asked.current == 0)
  }
}
