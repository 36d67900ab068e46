import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// Contract 13.4: `wait` inside a handler whose step has queued work on the thread's trampoline.
@Suite("13.4 wait inside a step with queued work")
struct PromiseWaitTrampolineTests {
  @Test(
    "13.4 wait inside a handler whose step has queued work returns the value at once, and the queued observer still runs"
  )
  func waitInsideAStepWithQueuedWork() {
    let waited = Recorder<Result<Int, TestError>?>()
    let other = Recorder<Int>()
    _withStackBudget(0) {
      // An observer's call is a trampoline step: the handler below runs inside it.
      Future<Int, TestError>(value: 1).observe { _ in
        // With a budget of 0 the observer's call is queued on the trampoline: the step now has queued work.
        Future<Int, TestError>(value: 7).observe { result in
          if case .success(let value) = result { other.append(value) }
        }
        let result = Promise<Int, TestError> { completion in completion(.success(5)) }
          .then { $0 * 2 }
          .wait(timeout: .seconds(2))
        waited.append(result)
      }
    }
    #expect(waited.all == [.success(10)])
    #expect(other.all == [7])
  }
}
