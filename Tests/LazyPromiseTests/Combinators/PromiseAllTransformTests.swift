import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 12 (`Promise.all(_:maxConcurrent:_:)`: a collection mapped through asynchronous work).
@Suite("Promise all with a transform — contract 12")
struct PromiseAllTransformTests {
  @Test("12.1 nothing runs, not even the transform, before the combined promise runs; each run maps again")
  func nothingRunsBeforeRun() {
    let transforms = Recorder<Int>()
    let doubled = Promise.all([1, 2, 3]) { input in
      transforms.append(input)
      return Promise<Int, TestError>(value: input * 2)
    }
    #expect(transforms.all.isEmpty)
    #expect(Outcome(doubled).result == .success([2, 4, 6]))
    #expect(Outcome(doubled).result == .success([2, 4, 6]))
    #expect(transforms.all == [1, 2, 3, 1, 2, 3])
  }

  @Test("12.2 values arrive in input order, whatever order the work finishes in")
  func valuesArriveInInputOrder() async {
    let squares = Promise.all(Array(0..<30)) { later($0 * $0) }
    #expect(await squares.result == .success((0..<30).map { $0 * $0 }))
  }

  @Test("12.3 maxConcurrent bounds the transforms in flight; the next starts as one succeeds")
  func maxConcurrentBoundsTheTransforms() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let transforms = Counter()
    let outcome = Outcome(
      Promise.all(0..<4, maxConcurrent: 2) { index in
        transforms.increment()
        return gates[index].promise
      })
    #expect(transforms.current == 2)
    gates[1].succeed(1)
    #expect(transforms.current == 3)
    gates[0].succeed(0)
    gates[2].succeed(2)
    gates[3].succeed(3)
    #expect(outcome.result == .success([0, 1, 2, 3]))
  }

  @Test("12.4 the first failure is delivered at once; running inputs are cancelled, the rest never transformed")
  func firstFailureStopsTheRest() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let transforms = Counter()
    let outcome = Outcome(
      Promise.all(0..<4, maxConcurrent: 2) { index in
        transforms.increment()
        return gates[index].promise
      })
    gates[0].fail(.first)
    #expect(outcome.result == .failure(.first))
    #expect(gates.map(\.cancels.current) == [0, 1, 0, 0])
    #expect(transforms.current == 2)
  }

  @Test("12.5 no inputs: a run succeeds with [] at once")
  func noInputsGiveAnEmptyArray() {
    let none = Promise.all([Int]()) { Promise<Int, TestError>(value: $0) }
    #expect(Outcome(none).result == .success([]))
  }

  @Test("12.6 100,000 synchronous inputs run in constant stack on a 512 KiB thread", arguments: [nil, 3])
  func manySynchronousInputsAreStackSafe(limit: Int?) async {
    let delivered = Recorder<Int>()
    await onThread(stackSize: 512 * 1024) {
      Promise.all(0..<100_000, maxConcurrent: limit) { Promise<Int, TestError>(value: $0) }
        .run(some: { delivered.append($0.count) }, none: { _ in })
    }
    #expect(delivered.all == [100_000])
  }

  @Test("12.7 cancelling the combined run cancels the running inputs")
  func cancellingCancelsTheRunningInputs() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.all(0..<3, maxConcurrent: 2) { gates[$0].promise })
    outcome.handle.cancel()
    #expect(gates.map(\.cancels.current) == [1, 1, 0])
    gates[0].succeed(0)
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    #expect(outcome.result == nil)
  }
}
