import LazyPromise
import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// Runs of a pending future's lazy view (`Future.promise`): begin order, release on cancel, interrupt, many runs,
/// and a future that completed before the run.
@Suite("Future.promise — runs of a pending future's lazy view")
struct FuturePendingPromiseTests {
  /// What a run's handler holds, to see when it is released.
  final class Captured: Sendable {}

  @Test("20.2 runs of a pending future's promise are delivered in the order they began, on the completing thread")
  func beginOrder() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<Int>()
    let promise = future.promise
    var handles: [RunHandle] = []
    for index in 0..<5 {
      // Two views and a chain after one: every run waits in the same list.
      let view = index.isMultiple(of: 2) ? promise : future.promise.then { $0 }
      handles.append(view.run(some: { _ in order.append(index) }, none: { _ in }))
    }
    #expect(order.all.isEmpty)
    resolver.resolve(1)
    #expect(order.all == [0, 1, 2, 3, 4])
    #expect(handles.filter { !$0.isDelivered }.isEmpty)
  }

  @Test("20.4 a cancelled run lets go of what its handler holds at once, while the future stays pending")
  func cancelledRunIsReleased() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    weak var weakCaptured: Captured?
    let delivered = Counter()
    let handle: RunHandle = {
      let captured = Captured()
      weakCaptured = captured
      return future.promise.run { _ in withExtendedLifetime(captured) { _ = delivered.increment() } }
    }()
    #expect(weakCaptured != nil, "a waiting run holds its handler")
    handle.cancel()
    #expect(weakCaptured == nil, "a cancelled run must not stay in the pending future")
    resolver.resolve(1)
    #expect(delivered.current == 0)
  }

  @Test("20.4 with the first run cancelled, the runs after it, and one started later, are delivered in begin order")
  func firstRunCancelled() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<Int>()
    let promise = future.promise
    let handles = (0..<3).map { index in promise.run { _ in order.append(index) } }
    handles[0].cancel()
    promise.run { _ in order.append(3) }
    resolver.resolve(1)
    #expect(order.all == [1, 2, 3])
  }

  @Test("20.4 an interrupted run keeps waiting and delivers the result")
  func interruptedRunDelivers() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let results = Recorder<Int>()
    let handle = future.promise.run(some: { results.append($0) }, none: { _ in })
    handle._interrupt()
    #expect(results.all.isEmpty)
    resolver.resolve(3)
    #expect(results.all == [3])
    #expect(handle.isDelivered)
  }

  @Test("20.4 10,000 runs with every other one cancelled: the others are delivered once each, in order")
  func manyRunsEveryOtherCancelled() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let order = Recorder<Int>()
    let live = Counter()
    let promise = future.promise
    var handles: [RunHandle] = []
    for index in 0..<10_000 {
      let token = LiveToken(live: live, peak: Counter())
      handles.append(promise.run { _ in withExtendedLifetime(token) { order.append(index) } })
    }
    for index in stride(from: 1, to: handles.count, by: 2) { handles[index].cancel() }
    #expect(live.current == 5_000, "the cancelled runs' handlers are released at once")
    resolver.resolve(0)
    #expect(order.all == Array(stride(from: 0, to: 10_000, by: 2)))
    #expect(live.current == 0)
  }

  @Test("20.2 a run started on a completed future delivers at once, on the calling thread")
  func completedFuture() {
    let future = Future<Int, TestError>(value: 9)
    let results = Recorder<Int>()
    let handle = future.promise.then { $0 + 1 }.run(some: { results.append($0) }, none: { _ in })
    #expect(results.all == [10])
    #expect(handle.isDelivered)
    let (pending, resolver) = Future<Int, TestError>.makePending()
    let promise = pending.promise
    resolver.resolve(4)
    promise.run(some: { results.append($0) }, none: { _ in })
    #expect(results.all == [10, 4], "a view made while pending, run after completion")
  }

  @Test("20.2 a run cancelled before it starts never waits")
  func cancelledBeforeStart() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let delivered = Counter()
    let promise = future.promise
    let handle = Promise<Int, TestError>(value: 0).then { _ in promise }.run { _ in _ = delivered.increment() }
    handle.cancel()
    resolver.resolve(1)
    #expect(delivered.current == 0)
  }

  @Test("20.6 a pending future freed with runs waiting lets go of what they hold")
  func freedPendingFutureReleasesRuns() {
    weak var weakCaptured: Captured?
    var handle: RunHandle?
    do {
      let (future, _) = Future<Int, TestError>.makePending()
      let captured = Captured()
      weakCaptured = captured
      handle = future.promise.run { _ in withExtendedLifetime(captured) {} }
    }
    #expect(weakCaptured == nil, "the future and its resolver are gone: the run can never deliver")
    #expect(handle?.isDelivered == false)
  }
}
