import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Issue 13, part 1: a run's cancel-handler list under completion, registration and `cancel()` racing on one run.
/// CI runs it under the thread sanitizer (its test target) and the address sanitizer.
@Suite("RunHandle memory under concurrency — completion, registration and cancel racing on one run")
struct RunHandleMemoryConcurrencyTests {
  static let runs = 150_000
  static let handlersPerRun = 64

  /// What one run of the race saw: how many of its cancel handlers ran.
  final class Outcome: Sendable {
    let handlerRuns = Counter()
  }

  @Test("7.6 a run cancelled while its task completes on a queue and registers 64 handlers stays consistent")
  func cancelRacingCompletionAndRegistration() {
    let queue = DispatchQueue(label: "RunHandleMemoryConcurrencyTests.completion")
    var handles: [RunHandle] = []
    var outcomes: [Outcome] = []
    handles.reserveCapacity(Self.runs)
    outcomes.reserveCapacity(Self.runs)
    for index in 0..<Self.runs {
      let outcome = Outcome()
      let handle = Promise<Int, TestError> { completion, onCancel in
        queue.async { completion(.success(index)) }
        for _ in 0..<Self.handlersPerRun { onCancel { outcome.handlerRuns.increment() } }
      }.run { _ in }
      handle.cancel()
      handles.append(handle)
      outcomes.append(outcome)
    }
    queue.sync {}
    var mismatches = 0
    for (handle, outcome) in zip(handles, outcomes) {
      let ran = outcome.handlerRuns.current
      let consistent =
        handle.isDelivered != handle.isCancelled
        && (handle.isDelivered ? ran == 0 : ran <= Self.handlersPerRun)
      if !consistent { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }

  @Test("7.6 delay then timeout, both at zero on one queue, run many times without a crash")
  func delayThenTimeoutAtZero() {
    let queue = DispatchQueue(label: "RunHandleMemoryConcurrencyTests.timers")
    let finished = Counter()
    let runs = Self.runs / 4
    for _ in 0..<runs {
      Promise<Int, TestError>(value: 1)
        .delay(.zero, on: queue)
        .timeout(.zero, on: queue, error: .first)
        .run { _ in finished.increment() }
    }
    queue.sync {}
    let deadline = DispatchTime.now() + .seconds(10)
    while finished.current < runs && DispatchTime.now() < deadline { queue.sync {} }
    #expect(finished.current == runs)
  }
}
