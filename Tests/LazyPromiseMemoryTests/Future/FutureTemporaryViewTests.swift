import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// A temporary future (`future.map { … }`, kept by nothing but the stage that completes it) viewed lazily while
/// it is pending: the view's runs are delivered when it completes, though the temporary future is freed during
/// its own completion (contract 20.6).
@Suite("20.6 A temporary future's lazy view, run while it is pending")
struct FutureTemporaryViewTests {
  @Test("20.6 future.map { }.promise.run delivers once when the future is resolved")
  func mappedViewRun() {
    let (future, resolver) = Future<Int, Never>.makePending()
    let delivered = Recorder<Int>()
    let handle = future.map { $0 + 1 }.promise.run { delivered.append($0) }
    resolver.resolve(1)
    #expect(delivered.all == [2])
    #expect(handle.isDelivered)
  }

  @Test("20.6 future.map { }.promise.start() keeps the mapped result")
  func mappedViewStart() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let started = future.map { $0 * 10 }.promise.start()
    resolver.resolve(4)
    #expect(started.result == .success(40))
  }

  @Test("20.6 future.flatMap { Future(value:) }.promise.start() keeps the inner future's result")
  func flatMappedViewStart() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let started = future.flatMap { Future(value: "\($0)") }.promise.start()
    resolver.resolve(7)
    #expect(started.result == .success("7"))
  }

  @Test("20.6 a failure reaches a temporary view's runs too")
  func mappedViewFailure() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let outcome = Outcome(future.map { $0 + 1 }.promise)
    resolver.reject(.first)
    #expect(outcome.result == .failure(.first))
  }

  @Test("20.6 a future made by start(), then mapped and viewed, delivers when its task completes")
  func startedThenMappedView() {
    let task = ManualTask<Int, TestError>()
    let delivered = Recorder<Int>()
    _ = task.promise.start().map { $0 + 1 }.promise.run { result in
      if case .success(let value) = result { delivered.append(value) }
    }
    task.succeed(1)
    #expect(delivered.all == [2])
  }

  @Test("20.6 several runs of one temporary view are all delivered, in the order they began")
  func severalRuns() {
    let (future, resolver) = Future<Int, Never>.makePending()
    let order = Recorder<Int>()
    let view = future.map { $0 }.promise
    for index in 0..<4 { view.run { _ in order.append(index) } }
    resolver.resolve(1)
    #expect(order.all == [0, 1, 2, 3])
  }

  @Test("20.6 view.receive(on:).start().map { } delivers on the queue (swift-nio's hop(to:))")
  func receiveOnStartMap() async {
    let (future, resolver) = Future<Int, Never>.makePending()
    let queue = DispatchQueue(label: "FutureTemporaryViewTests")
    let mapped = future.map { $0 + 1 }.promise.receive(on: queue).start().map { $0 * 2 }
    resolver.resolve(1)
    #expect(await mapped.value == 4)
  }

  @Test("20.6 a temporary future freed while pending still lets go of its waiting runs")
  func freedWhilePending() {
    weak var weakCaptured: LiveToken?
    let live = Counter()
    do {
      let (future, _) = Future<Int, Never>.makePending()
      let token = LiveToken(live: live, peak: Counter())
      weakCaptured = token
      _ = future.map { $0 }.promise.run { _ in withExtendedLifetime(token) {} }
    }
    #expect(weakCaptured == nil)
    #expect(live.current == 0)
  }
}
