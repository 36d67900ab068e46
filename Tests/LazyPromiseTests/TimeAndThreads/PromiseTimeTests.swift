import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 8: time. Every test runs on a `VirtualScheduler`: nothing sleeps.
@Suite("Promise time — contract 8")
struct PromiseTimeTests {
  init() { DiagnosticsCollector.install() }

  // MARK: delay

  @Test("8.1 delay delivers the value the given interval after it arrives, on the scheduler")
  func delayDeliversTheValueLater() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let results = Recorder<Result<Int, TestError>>()
    let seenAt = Recorder<Duration>()
    task.promise.delay(.seconds(2), on: clock)
      .map { value -> Int in
        seenAt.append(clock.now)
        return value
      }
      .run { results.append($0) }
    clock.advance(by: .seconds(5))
    #expect(results.all.isEmpty, "the wait starts when the value arrives")
    task.complete(.success(7))
    clock.advance(by: .milliseconds(1_999))
    #expect(results.all.isEmpty)
    clock.advance(by: .milliseconds(1))
    #expect(results.all == [.success(7)])
    #expect(seenAt.all == [.seconds(7)])
  }

  @Test("8.1 delay passes a failure on at once")
  func delayPassesFailuresAtOnce() {
    let clock = VirtualScheduler()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError>(error: .first).delay(.seconds(2), on: clock).run { results.append($0) }
    #expect(results.all == [.failure(.first)])
    #expect(clock.pendingCount == 0)
  }

  @Test("7.4 cancelling during a delay cancels its timer and delivers nothing")
  func cancellingDuringADelayCancelsTheTimer() {
    let clock = VirtualScheduler()
    let stageCalls = Counter()
    let handle = Promise<Int, TestError>(value: 1).delay(.seconds(2), on: clock)
      .map { value -> Int in
        stageCalls.increment()
        return value
      }
      .run { _ in Issue.record("a cancelled run must not deliver") }
    #expect(clock.pendingCount == 1)
    handle.cancel()
    #expect(clock.pendingCount == 0)
    clock.run()
    #expect(stageCalls.current == 0)
  }

  // MARK: timeout

  @Test("8.2 timeout passes a result that arrives in time unchanged, and cancels its timer")
  func timeoutPassesATimelyResult() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let results = Recorder<Result<Int, TestError>>()
    task.promise.timeout(.seconds(5), on: clock, error: .code(408)).run { results.append($0) }
    clock.advance(by: .seconds(4))
    task.complete(.failure(.second))
    #expect(results.all == [.failure(.second)])
    #expect(clock.pendingCount == 0)
    #expect(task.cancels.current == 0)
  }

  @Test("8.2 timeout of a synchronous promise delivers at once and leaves no timer")
  func timeoutOfASynchronousPromise() {
    let clock = VirtualScheduler()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError>(value: 3).timeout(.seconds(5), on: clock, error: .code(408)).run { results.append($0) }
    #expect(results.all == [.success(3)])
    #expect(clock.pendingCount == 0)
  }

  @Test("8.3 timeout fails with the caller's error and cancels the timed-out work")
  func timeoutFailsWithTheCallersErrorAndCancelsTheWork() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let afterTask = Counter()
    let results = Recorder<Result<Int, TestError>>()
    let madeAt = site(#fileID, #line + 1)
    task.promise
      .map { value -> Int in
        afterTask.increment()
        return value
      }
      .timeout(.seconds(5), on: clock, error: .code(408))
      .run { results.append($0) }
    clock.advance(by: .seconds(5))
    #expect(results.all == [.failure(.code(408))])
    #expect(task.cancels.current == 1)
    task.complete(.success(1))  // too late: ignored, and not a programmer error
    #expect(results.all == [.failure(.code(408))])
    #expect(afterTask.current == 0)
    #expect(DiagnosticsCollector.reports(at: madeAt).isEmpty)
  }

  @Test("8.3 a timeout error continues the chain like any typed failure")
  func timeoutErrorContinuesTheChain() {
    let clock = VirtualScheduler()
    let slow = ManualTask<String, TestError>()
    let results = Recorder<Result<String, TestError>>()
    slow.promise
      .timeout(.seconds(1), on: clock, error: .code(408))
      .flatMapError { error in Promise<String, TestError>(value: "fallback after \(error)") }
      .run { results.append($0) }
    clock.advance(by: .seconds(1))
    #expect(results.all == [.success("fallback after code(408)")])
  }

  @Test("8.4 the timeout clock starts when the run reaches the stage, on each run")
  func timeoutClockStartsWhenTheStageIsReached() {
    let clock = VirtualScheduler()
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<Int, TestError>()
    let promise = first.promise
      .then { _ in second.promise.timeout(.seconds(3), on: clock, error: .code(408)) }
    let results = Recorder<Result<Int, TestError>>()
    promise.run { results.append($0) }
    #expect(clock.pendingCount == 0)
    clock.advance(by: .seconds(10))
    first.complete(.success(1))
    #expect(clock.pendingCount == 1)
    clock.advance(by: .seconds(2))
    second.complete(.success(2))
    #expect(results.all == [.success(2)])
    promise.run { results.append($0) }
    first.complete(.success(1))
    clock.advance(by: .seconds(3))
    #expect(results.all == [.success(2), .failure(.code(408))])
  }

  @Test("7.4 cancelling a run cancels the timeout's timer and the work it guards")
  func cancellingCancelsTheTimeoutAndTheWork() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let handle = task.promise.timeout(.seconds(5), on: clock, error: .code(408))
      .run { _ in Issue.record("a cancelled run must not deliver") }
    handle.cancel()
    #expect(task.cancels.current == 1)
    #expect(clock.pendingCount == 0)
    task.complete(.success(1))
    clock.run()
  }

  // MARK: retry

  /// A promise that fails `failures` times, then succeeds with the attempt number; it counts its starts.
  static func flaky(failures: Int, starts: Counter, error: TestError = .first) -> Promise<Int, TestError> {
    Promise { completion in
      let attempt = starts.increment()
      completion(attempt <= failures ? .failure(error) : .success(attempt))
    }
  }

  @Test("8.5 retry runs the lazy work itself again until it succeeds", arguments: [0, 1, 2, 5])
  func retryRunsTheWorkAgainUntilItSucceeds(failures: Int) {
    let starts = Counter()
    let stageCalls = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Self.flaky(failures: failures, starts: starts)
      .map { value -> Int in
        stageCalls.increment()
        return value
      }
      .retry(5)
      .run { results.append($0) }
    #expect(results.all == [.success(failures + 1)])
    #expect(starts.current == failures + 1)
    #expect(stageCalls.current == 1)
  }

  @Test("8.5 retry gives up after the last retry with the last error", arguments: [0, 1, 3])
  func retryGivesUpWithTheLastError(retries: Int) {
    let starts = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError> { completion in completion(.failure(.code(starts.increment()))) }
      .retry(retries)
      .run { results.append($0) }
    #expect(results.all == [.failure(.code(retries + 1))])
    #expect(starts.current == retries + 1)
  }

  @Test("8.5 a negative retry count runs the work once")
  func negativeRetryCountRunsOnce() {
    let starts = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Self.flaky(failures: 10, starts: starts).retry(-3).run { results.append($0) }
    #expect(starts.current == 1)
    #expect(results.all == [.failure(.first)])
  }

  @Test("8.5 retry stops at an error the predicate rejects")
  func retryStopsWhenThePredicateRejects() {
    let starts = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError> { completion in
      completion(.failure(starts.increment() < 3 ? .first : .second))
    }
    .retry(10) { $0 == .first }
    .run { results.append($0) }
    #expect(results.all == [.failure(.second)])
    #expect(starts.current == 3)
  }

  @Test("8.5 retry of many synchronous failures runs in bounded stack")
  func retryOfManySynchronousFailures() {
    let starts = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Self.flaky(failures: 100_000, starts: starts).retry(100_000).run { results.append($0) }
    #expect(results.all == [.success(100_001)])
  }

  @Test("8.6 retry with a backoff waits before each retry, on the scheduler")
  func retryWithBackoffWaits() {
    let clock = VirtualScheduler()
    let startedAt = Recorder<Duration>()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError> { completion in
      startedAt.append(clock.now)
      completion(startedAt.count < 4 ? .failure(.first) : .success(startedAt.count))
    }
    .retry(5, backoff: .exponential(initial: .seconds(1)), on: clock)
    .run { results.append($0) }
    #expect(startedAt.all == [.zero])
    clock.advance(by: .milliseconds(999))
    #expect(startedAt.count == 1)
    clock.run()
    #expect(startedAt.all == [.zero, .seconds(1), .seconds(3), .seconds(7)])
    #expect(results.all == [.success(4)])
  }

  @Test("8.6 retry with a backoff does not wait after the last attempt or on success")
  func retryWithBackoffDoesNotWaitAtTheEnd() {
    let clock = VirtualScheduler()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError>(error: .first).retry(2, backoff: .constant(.seconds(1)), on: clock)
      .run { results.append($0) }
    clock.run()
    #expect(results.all == [.failure(.first)])
    #expect(clock.now == .seconds(2))
  }

  @Test("7.4 cancelling during a retry's backoff cancels the timer and starts no attempt")
  func cancellingDuringBackoffStartsNoAttempt() {
    let clock = VirtualScheduler()
    let starts = Counter()
    let handle = Self.flaky(failures: 10, starts: starts)
      .retry(5, backoff: .constant(.seconds(1)), on: clock)
      .run { _ in Issue.record("a cancelled run must not deliver") }
    #expect(clock.pendingCount == 1)
    handle.cancel()
    #expect(clock.pendingCount == 0)
    clock.run()
    #expect(starts.current == 1)
  }

  @Test("7.4 cancelling during an attempt cancels that attempt's work and starts no other")
  func cancellingDuringAnAttemptCancelsIt() {
    let task = ManualTask<Int, TestError>()
    let handle = task.promise.retry(5).run { _ in Issue.record("a cancelled run must not deliver") }
    task.complete(.failure(.first))
    #expect(task.starts.current == 2)
    handle.cancel()
    #expect(task.cancels.current == 1)
    task.complete(.failure(.first))
    #expect(task.starts.current == 2)
  }

  @Test("8.5 a timeout inside retry is retried: each attempt gets its own clock")
  func timeoutInsideRetry() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let results = Recorder<Result<Int, TestError>>()
    task.promise.timeout(.seconds(2), on: clock, error: .code(408)).retry(2).run { results.append($0) }
    clock.advance(by: .seconds(2))
    clock.advance(by: .seconds(2))
    #expect(task.starts.current == 3)
    #expect(task.cancels.current == 2)
    task.complete(.success(9))
    #expect(results.all == [.success(9)])
    #expect(clock.pendingCount == 0)
  }
}

extension PromiseTimeTests {
  @Test("8.5 a chain of 100,000 nested retries and timeouts runs in bounded stack")
  func deeplyNestedOperatorsRunInBoundedStack() {
    let clock = VirtualScheduler()
    var promise = Promise<Int, TestError>(value: 0)
    for index in 0..<100_000 {
      promise =
        index.isMultiple(of: 2)
        ? promise.retry(1) : promise.timeout(.seconds(1), on: clock, error: .code(408))
    }
    let results = Recorder<Result<Int, TestError>>()
    promise.run { results.append($0) }
    #expect(results.all == [.success(0)])
    #expect(clock.pendingCount == 0)
  }
}

extension PromiseTimeTests {
  @Test("8.5 retry's predicate may be a trailing closure, a multi-statement closure or a function")
  func retryPredicateShapes() {
    @Sendable func isFirst(_ error: TestError) -> Bool { error == .first }
    let starts = Counter()
    let failing = Promise<Int, TestError> { completion in
      starts.increment()
      completion(.failure(.first))
    }
    failing.retry(1) { $0 == .first }.run { _ in }
    failing.retry(1) { error in
      let worthIt = error == .first
      return worthIt
    }.run { _ in }
    failing.retry(1, if: isFirst).run { _ in }
    failing.retry(1, backoff: .constant(.zero), on: VirtualScheduler(), if: isFirst).run { _ in }
    #expect(starts.current == 7)
  }
}
