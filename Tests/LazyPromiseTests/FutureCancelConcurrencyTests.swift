import Dispatch
import LazyPromise
import Synchronization
import Testing

/// Contract E1.13: cancel racing completion. Run again under the thread sanitizer by CI (`--filter Concurrency`).
@Suite("Future cancel concurrency — cancel racing completion, contract E1.13")
struct FutureCancelConcurrencyTests {
  static let iterations = 10_000
  static let maximumSkew = 4_000

  /// What one race observed once both sides had finished.
  struct Outcome: Sendable {
    var results: [Result<Int, LookupError>]
    var cancelHandlerRuns: Int
    var isCancelled: Bool
    var result: Result<Int, LookupError>?
  }

  @Test("E1.13 cancel racing resolve on two threads: one wins, each observer receives it exactly once")
  func cancelRacingResolve() async {
    for iteration in 0..<Self.iterations {
      let outcome = await Self.raceResolveAgainstCancel(skew: Int.random(in: -Self.maximumSkew...Self.maximumSkew))
      #expect(outcome.results.count == 2, "iteration \(iteration): each of two observers once")
      #expect(Set(outcome.results.map { "\($0)" }).count == 1, "iteration \(iteration): the same result")
      #expect(outcome.results.first == outcome.result, "iteration \(iteration)")
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
    let results = Recorder<Result<Int, LookupError>>()
    let cancelHandlerRuns = Counter()
    let bothDone = Counter()
    let (future, resolver) = Future<Int, LookupError>.makePending()
    resolver.onCancel { cancelHandlerRuns.increment() }
    future.observe { results.append($0) }
    return await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      let finishSide: @Sendable () -> Void = {
        guard bothDone.increment() == 2 else { return }
        done.resume(
          returning: Outcome(
            results: results.all, cancelHandlerRuns: cancelHandlerRuns.current, isCancelled: future.isCancelled,
            result: future.result))
      }
      race(
        skew: skew,
        {
          resolver.resolve(1)
          finishSide()
        },
        {
          future.observe { results.append($0) }
          future.cancel()
          finishSide()
        })
    }
  }

  @Test("E1.13 cancelling a started future while its run completes on another thread: one outcome, once")
  func cancelRacingAStartedRun() async {
    for iteration in 0..<2_000 {
      let skew = Int.random(in: -Self.maximumSkew...Self.maximumSkew)
      let cancels = Counter()
      let delivered = Counter()
      let bothDone = Counter()
      let completion = Mutex<Promise<Int, LookupError>.Completion?>(nil)
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
}
