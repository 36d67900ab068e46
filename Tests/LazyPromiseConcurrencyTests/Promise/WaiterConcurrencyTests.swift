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

  /// Runs a chain of `joins` joins, let go of as soon as `run` returns, whose tasks complete on another thread after
  /// a random delay, so that an input often arrives while the frame that started its wait is still returning (the
  /// stage borrowed, not yet kept by a reference: `_Waiter.keep`); with `cancelling`, a cancel races them too. Each
  /// run must end exactly one way, deliver the right value if it delivers, and free the chain.
  func joinsCompletedElsewhere(joins: Int, cancelling: Bool) {
    let live = Counter()
    let peak = Counter()
    let working = DispatchGroup()  // every task's completion and every cancel, until it has returned
    let delivered = Locked<[Int: Int]>([:])
    var handles: [RunHandle] = []
    for run in 0..<Self.runs {
      let token = LiveToken(live: live, peak: peak)
      var chain = Promise<Int, TestError>(value: 0)
      for _ in 0..<joins {
        chain = chain.then { value in
          let next = withExtendedLifetime(token) { value &+ 1 }
          return Promise<Int, TestError> { completion in
            let skew = Int.random(in: 0...300)
            working.enter()
            DispatchQueue.global().async {
              spin(skew)
              completion(.success(next))
              working.leave()
            }
          }
        }
      }
      let handle = chain.run { result in
        if case .success(let value) = result { delivered.withLock { $0[run] = value } }
      }
      chain = Promise(value: 0)  // the caller lets go of the chain at once
      handles.append(handle)
      if cancelling {
        working.enter()
        DispatchQueue.global().async {
          spin(Int.random(in: 0...600))
          handle.cancel()
          working.leave()
        }
      }
    }
    working.wait()
    let values = delivered.withLock { $0 }
    var inconsistent = 0
    for (run, handle) in handles.enumerated() {
      let ended = handle.isDelivered != handle.isCancelled
      let right = handle.isDelivered ? values[run] == joins : values[run] == nil
      if !(ended && right) { inconsistent += 1 }
    }
    #expect(inconsistent == 0)
    handles.removeAll()
    #expect(live.current == 0)
  }

  @Test(
    "6.6 joins completed on another thread while the run that waits for them returns deliver once and free the chain")
  func joinsCompletedWhileTheirFrameReturns() {
    joinsCompletedElsewhere(joins: 4, cancelling: false)
  }

  @Test("6.6, 7.5 joins completed on another thread while a cancel races them end one way and free the chain")
  func joinsCompletedWhileCancelled() {
    joinsCompletedElsewhere(joins: 4, cancelling: true)
  }

  @Test("6.6 an input that borrows a segment's stages on another thread while its run returns keeps them until done")
  func inputBorrowingWhileItsRunReturns() {
    let live = Counter()
    let peak = Counter()
    let inside = DispatchSemaphore(value: 0)
    let letGo = DispatchSemaphore(value: 0)
    let completed = DispatchGroup()
    let delivered = Locked<Int?>(nil)
    var handle: RunHandle?
    do {
      let token = LiveToken(live: live, peak: peak)
      let chain = Promise<Int, TestError>(value: 0)
        .then { value in
          Promise<Int, TestError> { completion in
            completed.enter()
            DispatchQueue.global().async {
              completion(.success(value + 1))
              completed.leave()
            }
            inside.wait()  // the input is in the next stage, on the stages it borrowed from this frame
          }
        }
        .map { value in
          inside.signal()
          letGo.wait()  // until the run has returned and the caller has let go of the chain
          return withExtendedLifetime(token) { value + 1 }
        }
        .map { $0 + 1 }
      handle = chain.run { result in delivered.withLock { $0 = try? result.get() } }
    }
    letGo.signal()
    completed.wait()
    #expect(delivered.withLock { $0 } == 3)
    #expect(handle?.isDelivered == true)
    #expect(live.current == 0)
  }

  @Test("6.6 an input on another thread reads the segment's stages from none of the frames it was started from")
  func inputElsewhereReadsNoFrame() {
    // A frame of the run lists its segment's stages on its stack, and an input on the frame's own thread reads that
    // list while the frame is below it. Here the input comes on another thread while the frame waits inside the
    // task, and runs its stages after the frame has returned and its stack has been written over: had it read the
    // frame's list, it would call through the garbage written there.
    let inside = DispatchSemaphore(value: 0)
    let letGo = DispatchSemaphore(value: 0)
    let delivered = DispatchSemaphore(value: 0)
    let result = Locked<Int?>(nil)
    var chain = Promise<Int, TestError>(value: 0)
      .then { value in
        Promise<Int, TestError> { completion in
          DispatchQueue.global().async { completion(.success(value + 1)) }
          inside.wait()  // the input has started the next stage
        }
      }
      .map { value in
        inside.signal()
        letGo.wait()  // until the run has returned and its frames' stack is written over
        return value + 1
      }
    for _ in 0..<20 { chain = chain.map { $0 + 1 } }
    chain.run { outcome in
      result.withLock { $0 = try? outcome.get() }
      delivered.signal()
    }
    Self.writeOverStack()
    letGo.signal()
    delivered.wait()
    #expect(result.withLock { $0 } == 22)
  }

  /// Writes a pattern over the part of this thread's stack that the frames of a run just returned from used.
  @inline(never)
  static func writeOverStack() {
    withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { bytes in
      bytes.initializeMemory(as: UInt8.self, repeating: 0xA5)
      withExtendedLifetime(bytes.baseAddress) {}
    }
  }
}
