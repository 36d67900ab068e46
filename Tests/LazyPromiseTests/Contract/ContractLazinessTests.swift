import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 1: laziness.
@Suite("Contract 1 — laziness")
struct ContractLazinessTests {
  @Test("1.1 creating and chaining a promise runs nothing")
  func creatingAndChainingRunsNothing() {
    let calls = Counter()
    let promise = Promise<Int, TestError> { completion in
      calls.increment()
      completion(.success(1))
    }
    let chained = promise.then { $0 + 1 }.map { $0 * 2 }.flatMap { Promise(value: $0) }.mapError { $0 }
    _ = chained
    #expect(calls.current == 0)
  }

  @Test("1.2 each run runs the whole chain again from the first task")
  func runningTwiceRunsTheWorkTwice() {
    let taskCalls = Counter()
    let stageCalls = Counter()
    let promise = Promise<Int, TestError> { completion in
      completion(.success(taskCalls.increment()))
    }.map { value -> Int in
      stageCalls.increment()
      return value * 10
    }
    let results = Recorder<Int>()
    promise.run(some: { results.append($0) }, none: { _ in Issue.record("unexpected failure") })
    promise.run(some: { results.append($0) }, none: { _ in Issue.record("unexpected failure") })
    #expect(taskCalls.current == 2)
    #expect(stageCalls.current == 2)
    #expect(results.all == [10, 20])
  }

  @Test("1.3 a value promise delivers its value on every run")
  func valuePromiseDeliversOnEveryRun() {
    let results = Recorder<Int>()
    let promise = Promise<Int, Never>(value: 7)
    for _ in 0..<3 { promise.run(some: { results.append($0) }) }
    #expect(results.all == [7, 7, 7])
  }
}
