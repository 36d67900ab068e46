import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract 19.13: cancel racing completion. Run again under the thread sanitizer by CI (its test target).
@Suite("Future cancel concurrency — cancel racing completion, contract 19.13")
struct FutureCancelConcurrencyTests {
  static let iterations = 10_000
  static let maximumSkew = 4_000

  /// What one race observed once both sides had finished.
  struct Outcome: Sendable {
    var observers: [Slot.Seen]
    var cancelHandlerRuns: Int
    var isCancelled: Bool
    var result: Result<Int, LookupError>?
  }

  /// What one observer received, in atomics only: a `Mutex` contended across threads waits in uninstrumented
  /// standard-library code on Linux, which the thread sanitizer would report as a race.
  final class Slot: Sendable {
    struct Seen: Equatable, Sendable {
      var calls: Int
      var result: Result<Int, LookupError>?
    }

    private let calls = Atomic<Int>(0)
    private let code = Atomic<Int>(0)  // 1: success(1), 2: failure(.cancelled), 3: anything else

    func record(_ result: Result<Int, LookupError>) {
      switch result {
      case .success(1): code.store(1, ordering: .releasing)
      case .failure(.cancelled): code.store(2, ordering: .releasing)
      default: code.store(3, ordering: .releasing)
      }
      calls.add(1, ordering: .acquiringAndReleasing)
    }

    var seen: Seen {
      let calls = calls.load(ordering: .acquiring)
      switch code.load(ordering: .acquiring) {
      case 1: return Seen(calls: calls, result: .success(1))
      case 2: return Seen(calls: calls, result: .failure(.cancelled))
      case 3: return Seen(calls: calls, result: .failure(.notFound))
      default: return Seen(calls: calls, result: nil)
      }
    }
  }

  @Test("19.13 cancel racing resolve on two threads: one wins, each observer receives it exactly once")
  func cancelRacingResolve() async {
    for iteration in 0..<Self.iterations {
      let outcome = await Self.raceResolveAgainstCancel(skew: Int.random(in: -Self.maximumSkew...Self.maximumSkew))
      for seen in outcome.observers {
        #expect(seen.calls == 1, "iteration \(iteration): each observer once")
        #expect(seen.result == outcome.result, "iteration \(iteration): the future's one result")
      }
      if outcome.isCancelled {
        #expect(outcome.result == .failure(.cancelled), "iteration \(iteration)")
        #expect(outcome.cancelHandlerRuns == 1, "iteration \(iteration): the work is stopped once")
      } else {
        #expect(outcome.result == .success(1), "iteration \(iteration)")
        #expect(outcome.cancelHandlerRuns == 0, "iteration \(iteration): a completed future stops nothing")
      }
    }
  }

  /// Resolves a future on one thread while another cancels it; one observer registered before, one during.
  static func raceResolveAgainstCancel(skew: Int) async -> Outcome {
    let before = Slot()
    let during = Slot()
    let cancelHandlerRuns = Counter()
    let bothDone = Counter()
    let (future, resolver) = Future<Int, LookupError>.makePending()
    resolver.onCancel { cancelHandlerRuns.increment() }
    future.observe { before.record($0) }
    return await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      let finishSide: @Sendable () -> Void = {
        guard bothDone.increment() == 2 else { return }
        done.resume(
          returning: Outcome(
            observers: [before.seen, during.seen], cancelHandlerRuns: cancelHandlerRuns.current,
            isCancelled: future.isCancelled, result: future.result))
      }
      race(
        skew: skew,
        {
          resolver.resolve(1)
          finishSide()
        },
        {
          future.observe { during.record($0) }
          future.cancel()
          finishSide()
        })
    }
  }

  @Test("19.13 cancelling a started future while its run completes on another thread: one outcome, once")
  func cancelRacingAStartedRun() async {
    for iteration in 0..<2_000 {
      let skew = Int.random(in: -Self.maximumSkew...Self.maximumSkew)
      let cancels = Counter()
      let delivered = Counter()
      let bothDone = Counter()
      let completion = Locked<Promise<Int, LookupError>.Completion?>(nil)
      let future = Promise<Int, LookupError> { done, onCancel in
        completion.withLock { $0 = done }
        onCancel { cancels.increment() }
      }
      .start()
      future.observe { _ in delivered.increment() }
      let finish = completion.withLock { $0 }!
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let side: @Sendable () -> Void = { if bothDone.increment() == 2 { done.resume() } }
        race(
          skew: skew,
          {
            finish(.success(2))
            side()
          },
          {
            future.cancel()
            side()
          })
      }
      #expect(delivered.current == 1, "iteration \(iteration)")
      if future.isCancelled {
        #expect(future.result == .failure(.cancelled), "iteration \(iteration)")
        #expect(cancels.current <= 1, "iteration \(iteration)")
      } else {
        #expect(future.result == .success(2), "iteration \(iteration)")
        #expect(cancels.current == 0, "iteration \(iteration)")
      }
    }
  }

  @Test("19.13 a cancel handler registered while another thread cancels runs exactly once; while it resolves, never")
  func registrationRacingCancelAndResolve() async {
    for iteration in 0..<Self.iterations {
      let cancelling = iteration % 2 == 0
      let runs = Counter()
      let bothDone = Counter()
      let (future, resolver) = Future<Int, LookupError>.makePending()
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let side: @Sendable () -> Void = { if bothDone.increment() == 2 { done.resume() } }
        race(
          skew: Int.random(in: -Self.maximumSkew...Self.maximumSkew),
          {
            resolver.onCancel { runs.increment() }
            side()
          },
          {
            if cancelling { future.cancel() } else { resolver.resolve(1) }
            side()
          })
      }
      #expect(runs.current == (cancelling ? 1 : 0), "iteration \(iteration)")
      #expect(future.isCancelled == cancelling, "iteration \(iteration)")
    }
  }
}
