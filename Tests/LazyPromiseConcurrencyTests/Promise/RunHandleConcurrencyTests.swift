import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 7.5: cancellation racing completion. Run again under the thread sanitizer by CI
/// (its test target).
@Suite("RunHandle concurrency — cancel racing completion, contract 7.5")
struct RunHandleConcurrencyTests {
  static let iterations = 10_000
  static let maximumSkew = 4_000

  /// What one race observed once both sides had finished.
  struct Outcome: Sendable {
    var delivered: Int
    var cancelHandlerRuns: Int
    var isDelivered: Bool
    var isCancelled: Bool
  }

  @Test("7.5 cancel racing completion from another thread: each run delivers exactly once or is cancelled")
  func cancelRacingCompletionFinishesOnceOrIsCancelled() async {
    let live = Counter()
    var delivered = 0
    var cancelled = 0
    for iteration in 0..<Self.iterations {
      let outcome = await Self.raceCancelAgainstCompletion(
        skew: Int.random(in: -Self.maximumSkew...Self.maximumSkew), live: live)
      #expect(outcome.delivered <= 1, "iteration \(iteration) delivered twice")
      #expect(outcome.isDelivered != outcome.isCancelled, "iteration \(iteration) is neither or both")
      #expect(outcome.isDelivered == (outcome.delivered == 1), "iteration \(iteration)")
      #expect(outcome.cancelHandlerRuns <= (outcome.isCancelled ? 1 : 0), "iteration \(iteration)")
      if outcome.isDelivered { delivered += 1 } else { cancelled += 1 }
    }
    #expect(delivered + cancelled == Self.iterations)
    await Self.expectAllReleased(live)
  }

  /// Runs a two-stage chain whose task completes on one thread while another cancels the run.
  static func raceCancelAgainstCompletion(skew: Int, live: Counter) async -> Outcome {
    let delivered = Counter()
    let cancelHandlerRuns = Counter()
    let handle = Locked<RunHandle?>(nil)
    let bothDone = Counter()
    return await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      let finishSide: @Sendable () -> Void = {
        guard bothDone.increment() == 2, let handle = handle.withLock({ $0 }) else { return }
        done.resume(
          returning: Outcome(
            delivered: delivered.current, cancelHandlerRuns: cancelHandlerRuns.current,
            isDelivered: handle.isDelivered, isCancelled: handle.isCancelled))
      }
      let token = LiveToken(live: live, peak: Counter())
      let promise = Promise<Int, TestError> { completion, onCancel in
        onCancel {
          withExtendedLifetime(token) { _ = cancelHandlerRuns.increment() }
        }
        race(
          skew: skew,
          {
            completion(.success(1))
            finishSide()
          },
          {
            while true {
              if let handle = handle.withLock({ $0 }) {
                handle.cancel()
                break
              }
            }
            finishSide()
          })
      }
      .map { $0 + 1 }
      let running = promise.run { result in
        withExtendedLifetime(token) {
          #expect(result == .success(2))
          delivered.increment()
        }
      }
      handle.withLock { $0 = running }
    }
  }

  @Test("7.5 a timeout firing on one thread while the work completes on another delivers exactly once")
  func timeoutRacingCompletionDeliversOnce() async {
    let live = Counter()
    for iteration in 0..<1_000 {
      let skew = Int.random(in: -Self.maximumSkew...Self.maximumSkew)
      let token = LiveToken(live: live, peak: Counter())
      let cancels = Counter()
      let delivered = Counter()
      let outcome = await withCheckedContinuation { (done: CheckedContinuation<Result<Int, TestError>, Never>) in
        let promise = Promise<Int, TestError> { completion, onCancel in
          onCancel { withExtendedLifetime(token) { _ = cancels.increment() } }
          race(skew: skew, { completion(.success(1)) }, {})
        }
        promise.timeout(.zero, on: DispatchQueue.global(), error: .code(408)).run { result in
          withExtendedLifetime(token) {
            if delivered.increment() == 1 { done.resume(returning: result) }
          }
        }
      }
      #expect(outcome == .success(1) || outcome == .failure(.code(408)), "iteration \(iteration)")
      #expect(delivered.current == 1, "iteration \(iteration)")
      // The work's cancel handler runs only when the timeout won while the work was still pending.
      #expect(cancels.current <= (outcome == .failure(.code(408)) ? 1 : 0), "iteration \(iteration)")
    }
    await Self.expectAllReleased(live)
  }

  /// Gives the other threads a moment to release what they captured, then checks that everything was released.
  static func expectAllReleased(_ live: Counter) async {
    for _ in 0..<100_000 where live.current > 0 { await Task.yield() }
    #expect(live.current == 0, "a run kept what its task captured alive")
  }
}
