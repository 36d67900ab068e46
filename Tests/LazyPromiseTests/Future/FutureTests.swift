import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19: the eager `Future` — creation, completion, observers.
@Suite("Future — contract 19")
struct FutureTests {
  init() { DiagnosticsCollector.install() }

  @Test("19.1 a future's task starts at once, exactly once")
  func taskStartsAtOnceExactlyOnce() {
    let starts = Counter()
    let future = Future<Int, TestError> { completion in
      starts.increment()
      completion(.success(1))
    }
    #expect(starts.current == 1)
    future.observe { _ in }
    future.observe { _ in }
    _ = future.map { $0 + 1 }
    #expect(starts.current == 1)
    #expect(future.result == .success(1))
  }

  @Test("19.1 a task may complete later, from another thread")
  func taskCompletesLater() async {
    let future = Future<Int, TestError> { completion in
      DispatchQueue.global().async { completion(.success(7)) }
    }
    #expect(await value(of: future) == .success(7))
  }

  @Test("19.2 the first completion is kept; later ones are ignored and reported with the creation site")
  func secondCompletionIsIgnoredAndReported() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let madeAt = site(#fileID, #line - 1)
    let results = Recorder<Result<Int, TestError>>()
    future.observe { results.append($0) }
    resolver.resolve(1)
    resolver.resolve(2)
    resolver.reject(.first)
    future.observe { results.append($0) }
    #expect(results.all == [.success(1), .success(1)])
    #expect(future.result == .success(1))
    #if DEBUG
      let reports = DiagnosticsCollector.reports(at: madeAt)
      #expect(reports.map(\.kind) == [.futureCompletedMoreThanOnce, .futureCompletedMoreThanOnce])
    #endif
  }

  @Test("19.2 a task that completes twice keeps the first result and is reported")
  func taskCompletingTwiceIsReported() {
    let future = Future<Int, TestError> { completion in
      completion(.failure(.first))
      completion(.success(2))
    }
    let madeAt = site(#fileID, #line - 4)
    #expect(future.result == .failure(.first))
    #if DEBUG
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.futureCompletedMoreThanOnce])
    #endif
  }

  @Test("19.3 an observer registered while pending runs when the future completes, before resolve returns")
  func pendingObserverRunsOnCompletion() async {
    let (future, resolver) = Future<String, TestError>.makePending()
    await confirmation(expectedCount: 1) { observed in
      future.observe { result in
        #expect(result == .success("done"))
        observed()
      }
      #expect(future.result == nil)
      resolver.resolve("done")
    }
  }

  @Test("19.3 an observer registered after completion runs at once")
  func lateObserverRunsAtOnce() async {
    let future = Future<Int, TestError>(error: .second)
    await confirmation(expectedCount: 1) { observed in
      future.observe { result in
        #expect(result == .failure(.second))
        observed()
      }
    }
  }

  @Test("19.3 pending observers run on the thread that completes the future")
  func observersRunOnTheCompletingThread() async {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "completing")
    queue.setSpecific(key: key, value: "completing")
    let (future, resolver) = Future<Int, TestError>.makePending()
    let seen = Recorder<String?>()
    future.observe { _ in seen.append(DispatchQueue.getSpecific(key: key)) }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      queue.async {
        resolver.resolve(1)
        done.resume()
      }
    }
    #expect(seen.all == ["completing"])
  }

  @Test("19.3 a completed future keeps its result for every later reader")
  func completedFutureKeepsItsResult() {
    let (future, resolver) = Future<[Int], TestError>.makePending()
    #expect(future.result == nil)
    resolver.resolve([1, 2])
    #expect(future.result == .success([1, 2]))
    #expect(future.result == .success([1, 2]))
    #expect(Future<Int, TestError>(value: 3).result == .success(3))
    #expect(Future<Int, TestError>(result: .failure(.first)).result == .failure(.first))
  }

  @Test("19.4 one thread's observers run in registration order")
  func observersRunInRegistrationOrder() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<Int>()
    for index in 0..<100 {
      future.observe { _ in order.append(index) }
    }
    resolver.resolve(0)
    #expect(order.all == Array(0..<100))
  }

  @Test("19.4 stages and observers of one future run in registration order")
  func stagesAndObserversRunInRegistrationOrder() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<String>()
    future.observe { _ in order.append("first observer") }
    _ = future.map { _ in order.append("map") }
    future.observe { _ in order.append("second observer") }
    _ = future.ensure { order.append("ensure") }
    resolver.resolve(0)
    #expect(order.all == ["first observer", "map", "second observer", "ensure"])
  }

  @Test("19.4 after a lazy view began waiting, later stages still run in their own registration order")
  func stagesAfterAViewRunInRegistrationOrder() {
    // A pending future's lazy views wait in one table, registered once, when the first view ran. A stage written
    // as a view (`future.promise.op().start()`) would run at the table's place, before `first observer`.
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<String>()
    _ = future.promise.run { _ in order.append("view") }
    future.observe { _ in order.append("first observer") }
    _ = future.fold([1]) { partial, element in
      order.append("fold")
      return Future(value: partial + element)
    }
    _ = future.recover { _ in 0 }.map { _ in order.append("recover") }
    _ = future.always { _ in order.append("always") }
    _ = future.ensure { order.append("ensure") }
    future.observe { _ in order.append("second observer") }
    resolver.resolve(0)
    #expect(order.all == ["view", "first observer", "fold", "recover", "always", "ensure", "second observer"])
  }

  @Test("19.5 an observer may observe, complete and read the future that calls it")
  func observerMayReenterItsFuture() async {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let log = Recorder<String>()
    future.observe { result in
      log.append("outer \(result)")
      #expect(future.result == result)
      resolver.resolve(99)  // ignored: already completed
      future.observe { inner in log.append("inner \(inner)") }
      log.append("outer done")
    }
    resolver.resolve(1)
    #expect(log.all == ["outer success(1)", "inner success(1)", "outer done"])
    #expect(future.result == .success(1))
  }

  @Test("19.5 an observer may complete another future whose observers complete this one's chain")
  func observersMayCompleteOtherFutures() {
    let (first, firstResolver) = Future<Int, TestError>.makePending()
    let (second, secondResolver) = Future<Int, TestError>.makePending()
    let log = Recorder<Int>()
    first.observe { result in
      if case .success(let value) = result { secondResolver.resolve(value + 1) }
    }
    second.observe { result in
      if case .success(let value) = result { log.append(value) }
      firstResolver.resolve(100)  // ignored
    }
    firstResolver.resolve(1)
    #expect(log.all == [2])
  }

  @Test("19.6 observers are released once they have run")
  func observersAreReleasedAfterRunning() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      future.observe { _ in withExtendedLifetime(token) {} }
      _ = future.map { value in withExtendedLifetime(token) { value } }
    }
    #expect(weakToken != nil, "a pending future holds its observers")
    resolver.resolve(1)
    #expect(weakToken == nil, "a completed future holds no closure")
    #expect(future.result == .success(1))
  }

  @Test("19.6 an observer of a completed future is not retained")
  func lateObserverIsNotRetained() {
    let future = Future<Int, TestError>(value: 1)
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      future.observe { _ in withExtendedLifetime(token) {} }
    }
    #expect(weakToken == nil)
  }

  @Test("19.6 dropping a pending future releases its observers without running them")
  func droppedPendingFutureReleasesObservers() {
    weak var weakToken: Token?
    do {
      let (future, _) = Future<Int, TestError>.makePending()
      let token = Token()
      weakToken = token
      future.observe { _ in
        withExtendedLifetime(token) {}
        Issue.record("a future that can no longer complete cannot deliver")
      }
    }
    #expect(weakToken == nil)
  }
}

/// An object whose lifetime a test watches.
final class Token: Sendable {}
