import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clauses 2.4–2.7: threads.
@Suite("Promise threads — contract 2.4–2.7")
struct PromiseThreadsTests {
  /// A serial queue that knows its own name.
  static func namedQueue(_ name: String) -> (DispatchQueue, DispatchSpecificKey<String>) {
    let queue = DispatchQueue(label: name)
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: name)
    return (queue, key)
  }

  @Test("2.4 without receive(on:) or subscribe(on:) the work and the handlers run on the calling thread")
  func withoutOperatorsEverythingRunsInline() async {
    let (queue, key) = Self.namedQueue("caller")
    let seen = await withCheckedContinuation { (done: CheckedContinuation<[String?], Never>) in
      queue.async {
        let log = Recorder<String?>()
        Promise<Int, Never> { completion in
          log.append(DispatchQueue.getSpecific(key: key))
          completion(.success(1))
        }
        .map { value -> Int in
          log.append(DispatchQueue.getSpecific(key: key))
          return value
        }
        .run(some: { _ in log.append(DispatchQueue.getSpecific(key: key)) })
        done.resume(returning: log.all)
      }
    }
    #expect(seen == ["caller", "caller", "caller"])
  }

  @Test("2.5 receive(on:) delivers a value on the scheduler; later stages and the handler run there")
  func receiveOnDeliversValuesOnTheScheduler() async {
    let (queue, key) = Self.namedQueue("receiver")
    let log = Recorder<String>()
    let promise = later(20)
      .map { value -> Int in
        log.append("before: \(DispatchQueue.getSpecific(key: key) ?? "elsewhere")")
        return value
      }
      .receive(on: queue)
      .map { value -> Int in
        log.append("after: \(DispatchQueue.getSpecific(key: key) ?? "elsewhere")")
        return value + 1
      }
    let outcome = await withCheckedContinuation { (done: CheckedContinuation<Result<Int, TestError>, Never>) in
      promise.run { result in
        log.append("handler: \(DispatchQueue.getSpecific(key: key) ?? "elsewhere")")
        done.resume(returning: result)
      }
    }
    #expect(outcome == .success(21))
    #expect(log.all == ["before: elsewhere", "after: receiver", "handler: receiver"])
  }

  @Test("2.5 receive(on:) delivers an error on the scheduler too")
  func receiveOnDeliversErrorsOnTheScheduler() async {
    let (queue, key) = Self.namedQueue("receiver")
    let seen = await withCheckedContinuation { (done: CheckedContinuation<(TestError?, String?), Never>) in
      Promise<Int, TestError>(error: .second).receive(on: queue).run(
        some: { _ in done.resume(returning: (nil, nil)) },
        none: { done.resume(returning: ($0, DispatchQueue.getSpecific(key: key))) })
    }
    #expect(seen.0 == .second)
    #expect(seen.1 == "receiver")
  }

  @Test("2.5 receive(on:) hops even a synchronous chain: nothing is delivered before the scheduler runs")
  func receiveOnHopsSynchronousChains() {
    let clock = VirtualScheduler()
    let results = Recorder<Int>()
    let handle = Promise<Int, Never>(value: 1).receive(on: clock).map { $0 + 1 }.run(some: { results.append($0) })
    #expect(results.all.isEmpty)
    #expect(!handle.isDelivered)
    clock.advance()
    #expect(results.all == [2])
    #expect(handle.isDelivered)
  }

  @Test("2.6 subscribe(on:) starts the work on the scheduler, not on the thread that calls run")
  func subscribeOnStartsTheWorkOnTheScheduler() async {
    let (queue, key) = Self.namedQueue("worker")
    let seen = await withCheckedContinuation { (done: CheckedContinuation<[String?], Never>) in
      let log = Recorder<String?>()
      Promise<Int, Never> { completion in
        log.append(DispatchQueue.getSpecific(key: key))
        completion(.success(1))
      }
      .subscribe(on: queue)
      .run(some: { _ in
        log.append(DispatchQueue.getSpecific(key: key))
        done.resume(returning: log.all)
      })
    }
    #expect(seen == ["worker", "worker"])
  }

  @Test("2.6 subscribe(on:) starts nothing before the scheduler runs")
  func subscribeOnStartsNothingBeforeTheSchedulerRuns() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let results = Recorder<Result<Int, TestError>>()
    task.promise.map { $0 * 2 }.subscribe(on: clock).run { results.append($0) }
    #expect(task.starts.current == 0)
    clock.advance()
    #expect(task.starts.current == 1)
    task.complete(.success(4))
    #expect(results.all == [.success(8)])
  }

  @Test("2.7 each run hops again, and creating the promise hops nothing")
  func eachRunHopsAgain() {
    let clock = VirtualScheduler()
    let promise = Promise<Int, Never>(value: 1).subscribe(on: clock).receive(on: clock)
    #expect(clock.pendingCount == 0)
    let results = Recorder<Int>()
    promise.run(some: { results.append($0) })
    promise.run(some: { results.append($0) })
    #expect(clock.pendingCount == 2)
    clock.advance()
    #expect(results.all == [1, 1])
  }

  @Test("7.4 a run cancelled before subscribe(on:) runs starts nothing")
  func cancelBeforeSubscribeOnStartsNothing() {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let handle = task.promise.subscribe(on: clock).run { _ in Issue.record("a cancelled run must not deliver") }
    handle.cancel()
    clock.advance()
    #expect(task.starts.current == 0)
  }

  @Test("7.4 a run cancelled before receive(on:) hops runs no further stage")
  func cancelBeforeReceiveOnRunsNothingMore() {
    let clock = VirtualScheduler()
    let stageCalls = Counter()
    let handle = Promise<Int, TestError>(value: 1).receive(on: clock)
      .map { value -> Int in
        stageCalls.increment()
        return value
      }
      .run { _ in Issue.record("a cancelled run must not deliver") }
    handle.cancel()
    clock.advance()
    #expect(stageCalls.current == 0)
    #expect(handle.isCancelled)
  }
}
