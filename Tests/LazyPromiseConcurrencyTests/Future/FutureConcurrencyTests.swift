import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 9.6: awaiting a future. Run again under the thread sanitizer by CI (its test target).
@Suite("Future concurrency — awaiting a future, contract 9.6")
struct FutureConcurrencyTests {
  @Test("9.6 awaiting a completed future gives its value, or throws its typed error")
  func awaitingACompletedFuture() async throws {
    #expect(try await Future<Int, TestError>(value: 4).value == 4)
    do throws(TestError) {
      _ = try await Future<Int, TestError>(error: .second).value
      Issue.record("expected a failure")
    } catch {
      #expect(error == .second)
    }
    #expect(await Future<Int, Never>(value: 5).value == 5)
  }

  @Test("9.6 awaiting a pending future waits until another thread completes it")
  func awaitingAPendingFuture() async throws {
    let (future, resolver) = Future<Int, TestError>.makePending()
    DispatchQueue.global().async { resolver.resolve(6) }
    #expect(try await future.value == 6)
  }

  @Test("9.6 cancelling the awaiting task ends the await with .cancelled; the future goes on for others")
  func cancellingEndsTheAwaitButNotTheFuture() async throws {
    let (future, resolver) = Future<Int, LookupError>.makePending()
    let awaiting = Task { () async throws(LookupError) -> Int in try await future.value }
    awaiting.cancel()
    let outcome = await awaiting.result
    #expect(throws: LookupError.cancelled) { try outcome.get() }
    resolver.resolve(7)
    #expect(try await future.value == 7)
  }

  @Test("9.6 a future failing with any Error ends a cancelled await with a CancellationError")
  func anyErrorFutureEndsWithCancellationError() async {
    let (future, resolver) = Future<Int, any Error>.makePending()
    let awaiting = Task { try await future.value }
    awaiting.cancel()
    await #expect(throws: CancellationError.self) { try await awaiting.value }
    resolver.resolve(1)
  }

  @Test("9.6 for other error types a cancelled await waits for the future's result")
  func otherErrorTypesWaitForTheResult() async throws {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let started = Signal()
    let awaiting = Task { () async throws(TestError) -> Int in
      started.fire()
      return try await future.value
    }
    await started.wait()
    awaiting.cancel()
    resolver.resolve(8)
    #expect(try await awaiting.value == 8)
  }
}

/// Contract clause 19.9: completions racing observers. Run again under the thread sanitizer by CI (its test target).
@Suite("Future completion races — one completion kept, each observer called once, contract 19.9")
struct FutureCompletionConcurrencyTests {
  @Test(
    "19.9 two threads completing a future while two others observe it: one completion is kept, each observer receives it once"
  )
  func racingCompletionsAndObserversAgreeOnOneResult() {
    let wrong = Counter()
    for iteration in 0..<10_000 {
      let (future, resolver) = Future<Int, TestError>.makePending()
      let winners = Counter()
      let first = Recorder<Result<Int, TestError>>()
      let second = Recorder<Result<Int, TestError>>()
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        switch index {
        case 0: if resolver.tryResolve(iteration) { winners.increment() }
        case 1: if resolver.tryReject(.first) { winners.increment() }
        case 2: future.observe { first.append($0) }
        default: future.observe { second.append($0) }
        }
      }
      let kept = future.result
      let agree = first.all.count == 1 && second.all.count == 1 && first.all.first == kept && second.all.first == kept
      if kept == nil || winners.current != 1 || !agree { wrong.increment() }
    }
    #expect(wrong.current == 0)
  }
}
