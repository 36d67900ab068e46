import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 20.5: `shared()` counts the runs waiting for its work and cancels the work with the last of them.
@Suite("Shared work — cancelling every run cancels the work, contract 20.5")
struct SharedWorkTests {
  @Test("20.5 cancelling every run of a shared promise cancels the work: its cancel handler runs once")
  func cancellingEveryRunCancelsTheWork() {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    let runs = (0..<3).map { _ in Outcome(shared) }
    #expect(gate.starts.current == 1)
    runs[0].handle.cancel()
    runs[1].handle.cancel()
    #expect(gate.cancels.current == 0, "one run still waits")
    runs[2].handle.cancel()
    #expect(gate.cancels.current == 1)
    runs[2].handle.cancel()
    #expect(gate.cancels.current == 1, "cancelling again changes nothing")
    gate.succeed(1)  // late: its run was cancelled
    #expect(runs.allSatisfy { $0.result == nil })
  }

  @Test("20.5 cancelling some runs leaves the work running; the others receive its value")
  func cancellingSomeRunsLeavesTheWork() {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    let cancelled = Outcome(shared)
    let kept = Outcome(shared.map { $0 * 2 })
    cancelled.handle.cancel()
    #expect(gate.cancels.current == 0)
    gate.succeed(4)
    #expect(kept.result == .success(8))
    #expect(cancelled.result == nil)
    #expect(gate.starts.current == 1)
  }

  @Test("20.5 a run after every run was cancelled starts the work again")
  func aRunAfterAFullCancelRestarts() {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    Outcome(shared).handle.cancel()
    #expect(gate.starts.current == 1)
    #expect(gate.cancels.current == 1)
    let again = Outcome(shared)
    #expect(gate.starts.current == 2, "the work starts anew")
    gate.succeed(5)
    #expect(again.result == .success(5))
    #expect(Outcome(shared).result == .success(5), "and is kept from then on")
    #expect(gate.starts.current == 2)
  }

  @Test("20.5 runs that already delivered do not count: cancelling them cancels nothing")
  func deliveredRunsDoNotCount() {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    let first = Outcome(shared)
    gate.succeed(6)
    first.handle.cancel()
    let later = Outcome(shared)
    later.handle.cancel()
    #expect(first.result == .success(6))
    #expect(later.result == .success(6))
    #expect(gate.cancels.current == 0)
    #expect(gate.starts.current == 1)
  }

  @Test("20.5 an interrupted run (its awaiting task cancelled, E cannot say cancelled) keeps waiting and counts")
  func anInterruptedRunKeepsTheWork() async {
    let gate = ManualTask<Int, TestError>()
    let shared = gate.promise.shared()
    let awaiting = Task { await shared.result }
    while gate.starts.current == 0 { await Task.yield() }
    awaiting.cancel()
    let other = Outcome(shared)
    other.handle.cancel()
    #expect(gate.cancels.current == 0, "the interrupted run still waits for the work")
    gate.succeed(2)
    #expect(await awaiting.value == .success(2))
  }
}
