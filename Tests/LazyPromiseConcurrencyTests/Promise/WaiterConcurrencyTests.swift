import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// A waiting segment's waiter (`Internal/Stages/Waiter.swift`) under races: the task's completion, `cancel()` and the
/// release of the completion handler on different threads. CI runs it under the thread sanitizer
/// (its test target) and the address sanitizer.
@Suite("Waiters under concurrency — completion, cancel and release racing on one waiting segment")
struct WaiterConcurrencyTests {
  static let runs = 2_000

  /// A task that hands its completion handler to the test, which completes, cancels or drops it from any thread.
  final class Slot: Sendable {
    let completion = Locked<Promise<Int, TestError>.Completion?>(nil)

    var promise: Promise<Int, TestError> {
      Promise { [self] completion in self.completion.withLock { $0 = completion } }
    }

    func complete(_ value: Int) {
      completion.withLock { $0 }?(.success(value))
    }

    func drop() {
      let dropped = completion.withLock { $0.take() }
      withExtendedLifetime(dropped) {}
    }
  }

  /// Runs `stages` value stages on a slot's task, completing and cancelling on two threads at once; each run must
  /// end exactly one way, deliver the right value if it delivers, and free what its stages captured.
  func completionRacingCancel(stages: Int) {
    let live = Counter()
    let peak = Counter()
    let group = DispatchGroup()
    var handles: [RunHandle] = []
    let delivered = Locked<[Int: Int]>([:])
    for run in 0..<Self.runs {
      let slot = Slot()
      let token = LiveToken(live: live, peak: peak)
      var chain = slot.promise
      for _ in 0..<stages { chain = chain.map { value in withExtendedLifetime(token) { value &+ 1 } } }
      let handle = chain.run { result in
        if case .success(let value) = result { delivered.withLock { $0[run] = value } }
      }
      handles.append(handle)
      group.enter()
      group.enter()
      race(
        skew: Int.random(in: -300...300),
        {
          slot.complete(run)
          slot.drop()
          group.leave()
        },
        {
          handle.cancel()
          group.leave()
        })
    }
    group.wait()
    let values = delivered.withLock { $0 }
    var inconsistent = 0
    for (run, handle) in handles.enumerated() {
      let ended = handle.isDelivered != handle.isCancelled
      let right = handle.isDelivered ? values[run] == run + stages : values[run] == nil
      if !(ended && right) { inconsistent += 1 }
    }
    #expect(inconsistent == 0)
    handles.removeAll()
    #expect(live.current == 0)
  }

  @Test("6.6, 7.5 a segment waiting for a task is completed or cancelled, never both, and frees its stages")
  func segmentWaitingForATask() {
    completionRacingCancel(stages: 3)
  }

  @Test("6.6, 7.5 segments waiting for each other are completed or cancelled, never both, and free their stages")
  func segmentsWaitingForEachOther() {
    completionRacingCancel(stages: 130)
  }

  @Test("6.6, 7.5 a kept handler released while the run is cancelled frees the chain, whichever comes first")
  func keptHandlerReleasedWhileCancelling() {
    let live = Counter()
    let peak = Counter()
    let group = DispatchGroup()
    for _ in 0..<Self.runs {
      let slot = Slot()
      let token = LiveToken(live: live, peak: peak)
      let handle = Promise<Int, TestError>(value: 0)
        .map { $0 + 1 }
        .flatMap { _ in slot.promise }
        .map { value in withExtendedLifetime(token) { value + 1 } }
        .map { $0 + 1 }
        .run { _ in }
      group.enter()
      group.enter()
      race(
        skew: Int.random(in: -300...300),
        {
          slot.drop()
          group.leave()
        },
        {
          handle.cancel()
          group.leave()
        })
    }
    group.wait()
    #expect(live.current == 0)
  }
}
