import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Issue 13, part 4: a cancelled run of a pending `shared()` promise, or of a pending future's `promise`, lets go
/// of what it holds at once instead of when the work completes. `live` counts the runs' completion handlers.
@Suite("Observer removal — cancelled runs of a pending shared promise or future")
struct ObserverRemovalTests {
  static let runs = 100_000

  /// Runs `promise` `runs` times, cancelling each run at once; each run's handler holds a `LiveToken`.
  static func runAndCancel(_ promise: Promise<Int, TestError>, live: Counter, delivered: Counter) {
    for _ in 0..<runs {
      let token = LiveToken(live: live, peak: Counter())
      promise.run { _ in withExtendedLifetime(token) { _ = delivered.increment() } }.cancel()
    }
  }

  @Test("20.4 cancelled runs of a pending shared() promise are released before it completes")
  func sharedReleasesCancelledRuns() {
    let (work, resolver) = Future<Int, TestError>.makePending()
    let shared = work.promise.then { $0 + 1 }.shared()
    let live = Counter()
    let cancelledDeliveries = Counter()
    Self.runAndCancel(shared, live: live, delivered: cancelledDeliveries)
    #expect(live.current == 0, "a cancelled run's handler must be released while the work is pending")
    let kept = Recorder<Int>()
    shared.run(some: { kept.append($0) }, none: { _ in })
    resolver.resolve(41)
    #expect(kept.all == [42])
    #expect(cancelledDeliveries.current == 0)
  }

  @Test("20.4 cancelled runs of a pending future's promise are released before it completes")
  func futurePromiseReleasesCancelledRuns() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let live = Counter()
    let cancelledDeliveries = Counter()
    Self.runAndCancel(future.promise, live: live, delivered: cancelledDeliveries)
    #expect(live.current == 0, "a cancelled run's handler must be released while the future is pending")
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    future.promise.run(some: { first.append($0) }, none: { _ in })
    future.promise.run(some: { second.append($0) }, none: { _ in })
    resolver.resolve(7)
    #expect(first.all == [7] && second.all == [7])
    #expect(cancelledDeliveries.current == 0)
    let late = Recorder<Int>()
    future.promise.run(some: { late.append($0) }, none: { _ in })
    #expect(late.all == [7])
  }
}
