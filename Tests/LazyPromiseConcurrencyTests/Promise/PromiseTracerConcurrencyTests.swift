import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

@testable import LazyPromise

/// Counts starts and ends, from any thread.
private final class Balance: PromiseTracer {
  let starts = Counter()
  let ends = Counter()
  let cancelled = Counter()

  func stageStarted(_ stage: PromiseStage) { starts.increment() }

  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Void) {
    ends.increment()
    if case .cancelled = outcome { cancelled.increment() }
  }
}

@Suite("Tracing under concurrency: every start ends exactly once — issue 11")
struct PromiseTracerConcurrencyTests {
  @Test("18.2 concurrent runs, cancelled or not, end every start once")
  func concurrentRunsCancelledOrNotEndEveryStartOnce() async {
    let balance = Balance()
    let chain = PromiseTracing.withTracer(balance) {
      Promise<Int, TestError>(value: 1)
        .flatMap { later($0 + 1) }
        .then { later($0 * 2) }
        .map { $0 + 1 }
    }
    let runs = 2_000
    let finished = Counter()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<runs {
        group.addTask {
          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Atomic<Bool>(false)
            let done = { @Sendable in
              if !resumed.exchange(true, ordering: .relaxed) { continuation.resume() }
            }
            let handle = chain.run { result in
              #expect(result == .success(5))
              finished.increment()
              done()
            }
            if index % 3 == 0 {
              handle.cancel()
              done()
            }
          }
        }
      }
    }
    // A cancelled run may still be finishing a stage on a global queue: wait until the counts settle.
    for _ in 0..<1_000 where balance.ends.current != balance.starts.current {
      try? await Task.sleep(for: .milliseconds(5))
    }
    #expect(balance.starts.current == balance.ends.current)
    #expect(balance.starts.current >= runs)
    #expect(finished.current + (runs + 2) / 3 >= runs)
  }
}
