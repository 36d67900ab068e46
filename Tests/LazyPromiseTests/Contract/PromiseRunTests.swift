import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise+Run.swift`: `run(_:)`, `run(some:none:)` and, on a promise that cannot fail, `run(some:)`.
@Suite("Promise run — starting a run and receiving its result")
struct PromiseRunTests {
  @Test("2.3 run(_:) delivers a synchronous chain before it returns, and its handle says delivered")
  func runDeliversASynchronousChainBeforeReturning() {
    let delivered = Recorder<Result<Int, TestError>>()
    let handle = Promise<Int, TestError>(value: 20).then { $0 + 1 }.run { delivered.append($0) }
    #expect(delivered.all == [.success(21)])
    #expect(handle.isDelivered)
    #expect(!handle.isCancelled)
  }

  @Test("2.2 run(_:) calls its handler on the thread that delivered the last result")
  func runCallsItsHandlerOnTheDeliveringThread() async {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "delivering")
    queue.setSpecific(key: key, value: "delivering")
    let promise = Promise<Int, TestError> { completion in queue.async { completion(.success(1)) } }
    let seen = await withCheckedContinuation { continuation in
      promise.run { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
    }
    #expect(seen == "delivering")
  }

  @Test("1.2, 7.1 each call to run is a run of its own: cancelling one leaves the others")
  func eachRunIsIndependent() {
    let task = ManualTask<Int, TestError>()
    let first = Recorder<Result<Int, TestError>>()
    let second = Recorder<Result<Int, TestError>>()
    let firstRun = task.promise.run { first.append($0) }
    task.promise.run { second.append($0) }
    #expect(task.starts.current == 2)
    firstRun.cancel()
    task.completeAll(.success(1))
    #expect(first.all.isEmpty)
    #expect(second.all == [.success(1)])
    #expect(task.cancels.current == 1)
  }

  @Test("4.1 run(some:none:) calls some with the value, once, and never none")
  func someReceivesTheValue() {
    let values = Recorder<Int>()
    let errors = Recorder<TestError>()
    Promise<Int, TestError>(value: 2).map { $0 * 3 }.run(some: { values.append($0) }, none: { errors.append($0) })
    #expect(values.all == [6])
    #expect(errors.all.isEmpty)
  }

  @Test("3.2, 4.1 run(some:none:) calls none with the typed error, once, and never some")
  func noneReceivesTheTypedError() {
    let values = Recorder<Int>()
    let errors = Recorder<TestError>()
    Promise<Int, TestError>(error: .code(4)).map { $0 * 3 }.run(
      some: { values.append($0) }, none: { errors.append($0) })
    #expect(values.all.isEmpty)
    #expect(errors.all == [.code(4)])
  }

  @Test("7.1 run(some:none:) calls neither when the run is cancelled first")
  func cancelledRunCallsNeither() {
    let task = ManualTask<Int, TestError>()
    let calls = Counter()
    let handle = task.promise.run(some: { _ in calls.increment() }, none: { _ in calls.increment() })
    handle.cancel()
    task.succeed(1)
    task.fail(.first)
    #expect(calls.current == 0)
    #expect(handle.isCancelled)
    #expect(!handle.isDelivered)
  }

  @Test("4.1, 7.1 run(some:) on a promise that cannot fail receives the value once, and not after a cancel")
  func someOnANeverFailingPromise() {
    let task = ManualTask<Int, Never>()
    let values = Recorder<Int>()
    task.promise.then { $0 * 2 }.run(some: { values.append($0) })
    task.complete(.success(5))
    let cancelled = task.promise.run(some: { values.append($0) })
    cancelled.cancel()
    task.complete(.success(6))
    #expect(values.all == [10])
  }
}

@Suite("run and then on a promise that cannot fail — issue 9")
struct NeverFailingSpellingsTests {
  @Test("4.1 every documented spelling of run and then compiles for a promise that cannot fail, and delivers once")
  func everyDocumentedSpellingCompilesForNever() async {
    let recorder = Recorder<String>()
    let one = Promise<Int, Never>(value: 1)
    one.run { result in recorder.append("run \(result)") }
    one.run { _ in recorder.append("run _") }
    one.run(some: { recorder.append("some \($0)") })
    one.run(some: { recorder.append("some+none \($0)") }, none: { _ in })
    one.then { $0 * 2 }.run(some: { recorder.append("then \($0)") })
    one.map { $0 * 3 }.run { recorder.append("map \($0)") }
    one.flatMap { Promise(value: $0 * 4) }.run { recorder.append("flatMap \($0)") }
    one.then { Promise<Int, Never>(value: $0 * 5) }.run { recorder.append("then promise \($0)") }
    #expect(
      recorder.all == [
        "run success(1)", "run _", "some 1", "some+none 1", "then 2", "map success(3)", "flatMap success(4)",
        "then promise success(5)",
      ])
  }

  @Test(
    "7.1 the RunHandle doc examples compile: a run ends cancelled or delivered, and a synchronous one says delivered")
  func theRunHandleDocExamplesCompile() {
    let handle = Promise<Int, Never>(value: 1).run { _ in }
    handle.cancel()
    #expect(handle.isCancelled || handle.isDelivered)
    let delivered = Promise<Int, Never>(value: 1).run { _ in }
    #expect(delivered.isDelivered)
  }
}
