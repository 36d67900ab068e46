import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// Contract 8.7: `VirtualScheduler.advance` and `run` called from inside promise work finish what their work starts
/// before they return, whatever the caller's step has queued on the thread's trampoline.
@Suite("8.7 a virtual clock moved inside a step with queued work")
struct VirtualSchedulerTrampolineTests {
  @Test("8.7 advance inside a handler whose step has queued work delivers what falls due before it returns")
  func advanceInsideAStepWithQueuedWork() {
    let clock = VirtualScheduler()
    let delivered = Recorder<Int>()
    let seenAfterAdvance = Recorder<[Int]>()
    let other = Recorder<Int>()
    let handle = Promise<Int, TestError>(value: 2).delay(.seconds(1), on: clock).then { $0 * 3 }.run { result in
      if case .success(let value) = result { delivered.append(value) }
    }
    _withStackBudget(0) {
      // An observer's call is a trampoline step, queued with a budget of 0: the handler below runs inside it, and
      // the next observer's call is queued behind it.
      Future<Int, TestError>(value: 1).observe { _ in
        Future<Int, TestError>(value: 7).observe { result in
          if case .success(let value) = result { other.append(value) }
        }
        clock.advance(by: .seconds(1))
        seenAfterAdvance.append(delivered.all)
      }
    }
    #expect(seenAfterAdvance.all == [[6]])
    #expect(other.all == [7])
    #expect(handle.isDelivered)
  }

  @Test("8.7 run inside a handler whose step has queued work delivers everything before it returns")
  func runInsideAStepWithQueuedWork() {
    let clock = VirtualScheduler()
    let delivered = Recorder<Int>()
    let seenAfterRun = Recorder<[Int]>()
    _ = Promise<Int, TestError>(value: 2).delay(.seconds(3), on: clock).then { $0 + 1 }.run { result in
      if case .success(let value) = result { delivered.append(value) }
    }
    _withStackBudget(0) {
      Future<Int, TestError>(value: 1).observe { _ in
        Future<Int, TestError>(value: 7).observe { _ in }
        clock.run()
        seenAfterRun.append(delivered.all)
      }
    }
    #expect(seenAfterRun.all == [[3]])
  }
}
