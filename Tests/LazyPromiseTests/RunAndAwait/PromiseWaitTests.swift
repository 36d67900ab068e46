import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 13 (`wait(timeout:)`). The tests are synchronous: `wait` is unavailable from `async` code.
@Suite("Promise wait — contract 13")
struct PromiseWaitTests {
  @Test("13.1 a result delivered synchronously is returned, value or error")
  func synchronousResultIsReturned() {
    #expect(Promise<Int, TestError>(value: 1).wait(timeout: .seconds(1)) == .success(1))
    #expect(Promise<Int, TestError>(error: .first).wait(timeout: .zero) == .failure(.first))
  }

  @Test("13.2 a result delivered later from another thread is returned, and each call is a new run")
  func laterResultIsReturned() {
    let runs = Counter()
    let promise = Promise<Int, TestError> { completion in
      let run = runs.increment()
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { completion(.success(run)) }
    }
    #expect(promise.wait(timeout: .seconds(30)) == .success(1))
    #expect(promise.wait(timeout: .seconds(30)) == .success(2))
  }

  @Test("13.3 when the timeout passes first, the run is cancelled and nil is returned")
  func timeoutCancelsTheRun() {
    let gate = ManualTask<Int, TestError>()
    #expect(gate.promise.wait(timeout: .milliseconds(20)) == nil)
    #expect(gate.starts.current == 1)
    #expect(gate.cancels.current == 1)
  }
}
