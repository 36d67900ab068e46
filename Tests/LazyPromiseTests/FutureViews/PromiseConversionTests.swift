import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 20: lazy ↔ eager conversion.
@Suite("Promise conversion — contract 20")
struct PromiseConversionTests {
  @Test("20.1 start runs the promise now, once, and its future serves every observer")
  func startRunsOnce() {
    let runs = Counter()
    let promise = Promise<Int, TestError> { completion in
      runs.increment()
      completion(.success(runs.current))
    }
    .map { $0 * 10 }
    let future = promise.start()
    #expect(runs.current == 1)
    #expect(future.result == .success(10))
    future.observe { #expect($0 == .success(10)) }
    _ = future.map { $0 + 1 }
    #expect(runs.current == 1)
    #expect(promise.start().result == .success(20), "each start is a new run")
  }

  @Test("20.1 start of an asynchronous promise completes the future later")
  func startOfAsynchronousPromise() async {
    let future = later(3).map { $0 + 1 }.start()
    #expect(await value(of: future) == .success(4))
  }

  @Test("20.2 running future.promise starts no work and delivers the future's result")
  func futurePromiseDeliversTheResult() {
    let starts = Counter()
    let future = Future<Int, TestError> { completion in
      starts.increment()
      completion(.success(5))
    }
    let promise = future.promise.map { $0 * 2 }
    #expect(Outcome(promise).result == .success(10))
    #expect(Outcome(promise).result == .success(10))
    #expect(starts.current == 1)
  }

  @Test("20.2 a run of a pending future's promise delivers when the future completes")
  func pendingFuturePromiseDeliversLater() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let outcome = Outcome(future.promise)
    #expect(outcome.result == nil)
    resolver.reject(.second)
    #expect(outcome.result == .failure(.second))
  }

  @Test("20.2 a cancelled run of a future's promise delivers nothing")
  func cancelledFuturePromiseRunDeliversNothing() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let cancelled = Outcome(future.promise)
    let kept = Outcome(future.promise)
    cancelled.handle.cancel()
    resolver.resolve(1)
    #expect(cancelled.result == nil)
    #expect(kept.result == .success(1))
  }

  @Test("20.3 shared runs nothing before the first run, then the work once for every run")
  func sharedRunsTheWorkOnce() {
    let runs = Counter()
    let shared = Promise<Int, TestError> { completion in
      completion(.success(runs.increment()))
    }
    .shared()
    #expect(runs.current == 0)
    #expect(Outcome(shared).result == .success(1))
    #expect(Outcome(shared.map { $0 + 1 }).result == .success(2))
    #expect(Outcome(shared).result == .success(1))
    #expect(runs.current == 1)
  }

  @Test("20.3 shared keeps a failure too")
  func sharedKeepsAFailure() {
    let runs = Counter()
    let shared = Promise<Int, TestError> { completion in
      runs.increment()
      completion(.failure(.first))
    }
    .shared()
    #expect(Outcome(shared).result == .failure(.first))
    #expect(Outcome(shared).result == .failure(.first))
    #expect(runs.current == 1)
  }

  @Test("20.3 runs of a shared promise that is still working all receive its result; a cancelled one does not")
  func sharedPendingRunsAllReceive() {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    let first = Outcome(shared)
    let second = Outcome(shared)
    let cancelled = Outcome(shared)
    cancelled.handle.cancel()
    #expect(gate.starts.current == 1)
    #expect(gate.cancels.current == 0, "cancelling one run does not cancel the shared work")
    gate.succeed(8)
    #expect(first.result == .success(8))
    #expect(second.result == .success(8))
    #expect(cancelled.result == nil)
    #expect(Outcome(shared).result == .success(8))
  }

  @Test("20.1, 20.3 run twice, start, shared: how often the work runs")
  func runStartAndSharedCompared() {
    let runs = Counter()
    let promise = Promise<Int, TestError> { completion in completion(.success(runs.increment())) }

    promise.run { _ in }
    promise.run { _ in }
    #expect(runs.current == 2, "a promise runs its work on every run")

    let future = promise.start()
    #expect(runs.current == 3, "start runs it once, now")
    future.observe { _ in }
    future.observe { _ in }
    #expect(runs.current == 3)

    let shared = promise.shared()
    #expect(runs.current == 3, "shared runs nothing until the first run")
    shared.run { _ in }
    shared.run { _ in }
    #expect(runs.current == 4, "then once for every run")
  }
}
