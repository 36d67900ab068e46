import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 22 (`all`) and 23 (`allSettled`).
@Suite("Promise all — contract 22, 23")
struct PromiseAllTests {
  @Test("22.1 nothing starts before the combined promise runs; each run starts the inputs again, in order")
  func nothingStartsBeforeRun() {
    let order = Recorder<Int>()
    let inputs = (0..<3).map { index in
      Promise<Int, TestError> { completion in
        order.append(index)
        completion(.success(index))
      }
    }
    let all = Promise.all(inputs)
    #expect(order.all.isEmpty)
    #expect(Outcome(all).result == .success([0, 1, 2]))
    #expect(Outcome(all).result == .success([0, 1, 2]))
    #expect(order.all == [0, 1, 2, 0, 1, 2])
  }

  @Test("22.2 values arrive in input order, whatever order the inputs finish in")
  func valuesArriveInInputOrder() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(gates.map(\.promise)))
    for index in [2, 0, 3] { gates[index].succeed(index * 10) }
    #expect(outcome.result == nil)
    gates[1].succeed(10)
    #expect(outcome.result == .success([0, 10, 20, 30]))
  }

  @Test("22.2 asynchronous inputs finishing on other threads arrive in input order")
  func asynchronousInputsArriveInOrder() async {
    #expect(await Promise.all((0..<50).map { later($0) }).result == .success(Array(0..<50)))
  }

  @Test("22.3 the first failure is delivered at once; running inputs are cancelled, the rest never start")
  func firstFailureFailsFast() {
    let gates = (0..<5).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(gates.map(\.promise), maxConcurrent: 3))
    #expect(gates.map(\.starts.current) == [1, 1, 1, 0, 0])
    gates[0].succeed(0)
    #expect(gates.map(\.starts.current) == [1, 1, 1, 1, 0])
    gates[2].fail(.code(2))
    #expect(outcome.result == .failure(.code(2)))
    #expect(gates.map(\.cancels.current) == [0, 1, 0, 1, 0])
    #expect(gates[4].starts.current == 0)
  }

  @Test("22.4 no inputs: a run succeeds with [] at once")
  func noInputsSucceedAtOnce() {
    #expect(Outcome(Promise<Int, TestError>.all([])).result == .success([]))
    #expect(Outcome(Promise<Int, TestError>.all([], maxConcurrent: 2)).result == .success([]))
  }

  @Test("22.5 maxConcurrent bounds the inputs running at once; the next starts as one succeeds")
  func maxConcurrentBoundsTheRunningInputs() {
    let gates = (0..<6).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(gates.map(\.promise), maxConcurrent: 2))
    #expect(gates.map(\.starts.current) == [1, 1, 0, 0, 0, 0])
    gates[1].succeed(1)
    #expect(gates.map(\.starts.current) == [1, 1, 1, 0, 0, 0])
    gates[0].succeed(0)
    gates[2].succeed(2)
    #expect(gates.map(\.starts.current) == [1, 1, 1, 1, 1, 0])
    for index in 3..<6 { gates[index].succeed(index) }
    #expect(outcome.result == .success([0, 1, 2, 3, 4, 5]))
  }

  @Test("22.5 maxConcurrent below 1 counts as 1", arguments: [0, -3])
  func maxConcurrentBelowOneCountsAsOne(limit: Int) {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(gates.map(\.promise), maxConcurrent: limit))
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    for index in 0..<3 { gates[index].succeed(index) }
    #expect(outcome.result == .success([0, 1, 2]))
  }

  @Test("22.6 100,000 synchronous inputs run in constant stack on a 512 KiB thread", arguments: [nil, 1, 7])
  func manySynchronousInputsAreStackSafe(limit: Int?) async {
    let delivered = Recorder<Int>()
    await onThread(stackSize: 512 * 1024) {
      let inputs = (0..<100_000).map { Promise<Int, TestError>(value: $0) }
      Promise.all(inputs, maxConcurrent: limit).run(some: { delivered.append($0.count) }, none: { _ in })
    }
    #expect(delivered.all == [100_000])
  }

  @Test("22.7 cancelling the combined run cancels the running inputs; the rest never start")
  func cancellingCancelsTheRunningInputs() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(gates.map(\.promise), maxConcurrent: 2))
    outcome.handle.cancel()
    #expect(gates.map(\.cancels.current) == [1, 1, 0, 0])
    gates[0].succeed(0)
    #expect(gates.map(\.starts.current) == [1, 1, 0, 0])
    #expect(outcome.result == nil)
  }

  @Test("23.1 allSettled delivers every result in input order and cannot fail")
  func allSettledDeliversEveryResult() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.allSettled(gates.map(\.promise)))
    gates[2].succeed(2)
    gates[0].fail(.first)
    #expect(outcome.result == nil)
    gates[1].succeed(1)
    #expect(outcome.result == .success([.failure(.first), .success(1), .success(2)]))
    #expect(gates.map(\.cancels.current) == [0, 0, 0])
  }

  @Test("23.1 allSettled honours maxConcurrent")
  func allSettledHonoursMaxConcurrent() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.allSettled(gates.map(\.promise), maxConcurrent: 1))
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    gates[0].fail(.second)
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    gates[1].succeed(1)
    gates[2].succeed(2)
    #expect(outcome.result == .success([.failure(.second), .success(1), .success(2)]))
  }

  @Test("23.2 allSettled of no inputs succeeds with [] at once")
  func allSettledOfNothing() {
    #expect(Outcome(Promise<Int, TestError>.allSettled([])).result == .success([]))
  }
}
