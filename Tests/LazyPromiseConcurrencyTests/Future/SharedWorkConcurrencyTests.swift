import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 20.5 under races. Run again under the thread sanitizer by CI (its test target).
@Suite("Shared work concurrency — counting runs across threads, contract 20.5")
struct SharedWorkConcurrencyTests {
  @Test("20.5 8 runs cancelled at once from 8 threads cancel the shared work exactly once (1,000 times)")
  func concurrentCancelsCancelTheWorkOnce() async {
    for iteration in 0..<1_000 {
      let gate = ManualTask<Int, TestError>()
      let shared = gate.promise.shared()
      let handles = (0..<8).map { _ in shared.run { _ in Issue.record("a cancelled run delivered") } }
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
          DispatchQueue.concurrentPerform(iterations: handles.count) { handles[$0].cancel() }
          done.resume()
        }
      }
      #expect(gate.starts.current == 1, "iteration \(iteration)")
      #expect(gate.cancels.current == 1, "iteration \(iteration)")
    }
  }

  @Test("20.5 a new run racing the last cancel either joins the work or starts it anew, and delivers once")
  func newRunRacingTheLastCancel() async {
    for iteration in 0..<2_000 {
      let gate = ManualTask<Int, TestError>()
      let shared = gate.promise.shared()
      let first = shared.run { _ in Issue.record("a cancelled run delivered") }
      let delivered = Counter()
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let bothDone = Counter()
        let side: @Sendable () -> Void = { if bothDone.increment() == 2 { done.resume() } }
        race(
          skew: Int.random(in: -2_000...2_000),
          {
            first.cancel()
            side()
          },
          {
            shared.run { result in
              #expect(result == .success(9))
              delivered.increment()
            }
            side()
          })
      }
      gate.succeed(9)  // the latest start: the one the second run waits for
      #expect(delivered.current == 1, "iteration \(iteration)")
      // Joined before the cancel: one start, nothing cancelled. After: the work was cancelled and started anew.
      #expect(gate.starts.current - 1 == gate.cancels.current, "iteration \(iteration)")
      #expect(gate.starts.current <= 2, "iteration \(iteration)")
    }
  }

  @Test("20.5 a run cancelled while the work completes on another thread delivers once or is cancelled")
  func cancelRacingTheWorksCompletion() async {
    for iteration in 0..<2_000 {
      let gate = ManualTask<Int, TestError>()
      let shared = gate.promise.shared()
      let delivered = Counter()
      let handle = shared.run { _ in delivered.increment() }
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let bothDone = Counter()
        let side: @Sendable () -> Void = { if bothDone.increment() == 2 { done.resume() } }
        race(
          skew: Int.random(in: -2_000...2_000),
          {
            gate.succeed(3)
            side()
          },
          {
            handle.cancel()
            side()
          })
      }
      #expect(handle.isDelivered != handle.isCancelled, "iteration \(iteration)")
      #expect(delivered.current == (handle.isDelivered ? 1 : 0), "iteration \(iteration)")
      #expect(gate.cancels.current <= (handle.isCancelled ? 1 : 0), "iteration \(iteration)")
    }
  }
}
