import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 11 (`Promise.reduce`).
@Suite("Promise reduce — contract 11")
struct PromiseReduceTests {
  @Test("11.1 nothing starts before the reduced promise runs; each run runs the inputs again, in order")
  func nothingStartsBeforeRun() {
    let order = Recorder<Int>()
    let inputs = (1...3).map { index in
      Promise<Int, TestError> { completion in
        order.append(index)
        completion(.success(index))
      }
    }
    let sum = Promise.reduce(inputs, initial: 0, +)
    #expect(order.all.isEmpty)
    #expect(Outcome(sum).result == .success(6))
    #expect(Outcome(sum).result == .success(6))
    #expect(order.all == [1, 2, 3, 1, 2, 3])
  }

  @Test("11.2 each input starts only after the one before it delivered, and values fold in input order")
  func inputsRunOneAfterAnother() {
    let gates = (0..<3).map { _ in ManualTask<String, TestError>() }
    let outcome = Outcome(Promise.reduce(gates.map(\.promise), initial: "") { $0 + $1 })
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    gates[0].succeed("a")
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    gates[1].succeed("b")
    gates[2].succeed("c")
    #expect(outcome.result == .success("abc"))
  }

  @Test("11.2 inputs finishing on other threads fold in order")
  func asynchronousInputsFoldInOrder() async {
    let joined = Promise.reduce((0..<20).map { later($0) }, initial: [Int]()) { $0 + [$1] }
    #expect(await joined.result == .success(Array(0..<20)))
  }

  @Test("11.3 the first failure is delivered at once and the later inputs never start")
  func firstFailureStopsTheFold() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let combines = Counter()
    let outcome = Outcome(
      Promise.reduce(gates.map(\.promise), initial: 0) { total, value in
        combines.increment()
        return total + value
      })
    gates[0].fail(.code(1))
    #expect(outcome.result == .failure(.code(1)))
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    #expect(combines.current == 0)
  }

  @Test("11.4 no inputs: a run succeeds with the initial value at once")
  func noInputsGiveTheInitialValue() {
    #expect(Outcome(Promise.reduce([Promise<Int, TestError>](), initial: 42, +)).result == .success(42))
  }

  @Test("11.5 cancelling the run cancels the input in progress and starts no other")
  func cancellingStopsTheFold() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.reduce(gates.map(\.promise), initial: 0, +))
    gates[0].succeed(1)
    outcome.handle.cancel()
    #expect(gates.map(\.cancels.current) == [0, 1, 0])
    gates[1].succeed(2)
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    #expect(outcome.result == nil)
  }

  @Test("11.6 100,000 synchronous inputs run in constant stack on a 512 KiB thread")
  func manySynchronousInputsAreStackSafe() async {
    let delivered = Recorder<Int>()
    await onThread(stackSize: 512 * 1024) {
      let values = (0..<100_000).map { Promise<Int, TestError>(value: $0) }
      Promise.reduce(values, initial: 0, +).run(some: { delivered.append($0) }, none: { _ in })
      let tasks = (0..<100_000).map { value in Promise<Int, TestError> { $0(.success(value)) } }
      Promise.reduce(tasks, initial: 0, +).run(some: { delivered.append($0) }, none: { _ in })
    }
    #expect(delivered.all == [4_999_950_000, 4_999_950_000])
  }
}
