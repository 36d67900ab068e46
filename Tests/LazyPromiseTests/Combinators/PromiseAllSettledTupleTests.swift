import LazyPromise
import LazyPromiseTestSupport
import Testing

private enum SettleError: Error, Equatable {
  case missing
}

/// `allSettled(_:_:_:)` over promises of different value and error types (issue 11: google/promises' heterogeneous
/// `all`/`any`): every outcome, in argument order; lazy; cancellation reaches every input.
@Suite("allSettled over promises of different types")
struct PromiseAllSettledTupleTests {
  @Test("17.2 every outcome arrives in argument order, failures included")
  func everyOutcomeArrives() async {
    let settled = allSettled(
      Promise<Int, TestError>(value: 1), Promise<String, SettleError>(error: .missing),
      Promise<Bool, Never>(value: true))
    let (number, text, flag) = await settled.value
    #expect(number == .success(1))
    #expect(text == .failure(.missing))
    #expect(flag == .success(true))
  }

  @Test("17.1 nothing starts before the run, and each run runs every input again")
  func lazyAndRunEachTime() async {
    let starts = Counter()
    let counted = Promise<Int, TestError> { completion in
      starts.increment()
      completion(.success(starts.current))
    }
    let settled = allSettled(counted, Promise<String, SettleError>(value: "x"))
    #expect(starts.current == 0)
    _ = await settled.value
    let (second, _) = await settled.value
    #expect(starts.current == 2)
    #expect(second == .success(2))
  }

  @Test("17.2, 17.3 it waits for the last outcome, and cancelling the run cancels the inputs still pending")
  func waitsAndCancels() {
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<String, SettleError>()
    let delivered = Counter()
    let handle = allSettled(first.promise, second.promise).run { _ in delivered.increment() }
    first.complete(.failure(.first))
    #expect(delivered.current == 0, "the second input is still pending")
    handle.cancel()
    #expect(second.cancels.current == 1)
    second.complete(.success("late"))
    #expect(delivered.current == 0, "a cancelled run delivers nothing")
  }
}
