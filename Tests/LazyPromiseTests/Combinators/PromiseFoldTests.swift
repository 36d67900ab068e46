import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise+Fold.swift`: `fold`, the asynchronous fold (google/promises' `reduce`), on promises and futures.
@Suite("Promise fold — one asynchronous step per element, one after another", .serialized)
struct PromiseFoldTests {
  static let smallStack = 512 * 1024
  static let manySteps = 100_000

  @Test("the steps fold the elements in order, starting from the promise's value")
  func stepsFoldInOrder() {
    let joined = Promise<String, TestError>(value: ">").fold(["a", "b", "c"]) { partial, element in
      Promise(value: partial + element)
    }
    #expect(Outcome(joined).result == .success(">abc"))
  }

  @Test("nothing runs before the folded promise runs, and each run runs the promise and every step again")
  func foldIsLazy() {
    let calls = Recorder<Int>()
    let starts = Counter()
    let start = Promise<Int, TestError> { completion in
      starts.increment()
      completion(.success(0))
    }
    let sum = start.fold(1...3) { partial, element in
      calls.append(element)
      return Promise(value: partial + element)
    }
    #expect(starts.current == 0 && calls.all.isEmpty)
    #expect(Outcome(sum).result == .success(6))
    #expect(Outcome(sum).result == .success(6))
    #expect(starts.current == 2)
    #expect(calls.all == [1, 2, 3, 1, 2, 3])
  }

  @Test("each step is called only once the step before it has delivered")
  func stepsRunOneAfterAnother() {
    let gates = (0..<3).map { _ in ManualTask<String, TestError>() }
    let outcome = Outcome(
      Promise<String, TestError>(value: "").fold(0..<3) { partial, index in
        gates[index].promise.map { partial + $0 }
      })
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    gates[0].succeed("a")
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    gates[1].succeed("b")
    gates[2].succeed("c")
    #expect(outcome.result == .success("abc"))
    gates.forEach { $0.forget() }
  }

  @Test(
    "with no elements, the run delivers the promise's own result",
    arguments: [
      Result<Int, TestError>.success(5), .failure(.first),
    ])
  func noElementsDeliversTheStart(start: Result<Int, TestError>) {
    let folded = Promise(result: start).fold([Int]()) { partial, _ in
      Issue.record("no step may run")
      return Promise(value: partial)
    }
    #expect(Outcome(folded).result == start)
  }

  @Test("the first failure, of the promise or of a step, is delivered and no later step is called")
  func firstFailureStopsTheFold() {
    let calls = Recorder<Int>()
    let failingStep = Promise<Int, TestError>(value: 0).fold(1...5) { partial, element in
      calls.append(element)
      return element == 2 ? Promise(error: .code(element)) : Promise(value: partial + element)
    }
    #expect(Outcome(failingStep).result == .failure(.code(2)))
    #expect(calls.all == [1, 2])

    let failingStart = Promise<Int, TestError>(error: .first).fold(1...5) { partial, element in
      calls.append(element)
      return Promise(value: partial + element)
    }
    #expect(Outcome(failingStart).result == .failure(.first))
    #expect(calls.all == [1, 2])
  }

  @Test("cancelling the run cancels the step in progress and calls no other, even if that step then delivers")
  func cancelStopsBetweenSteps() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let delivered = Counter()
    let handle = Promise<Int, TestError>(value: 0).fold(0..<3) { partial, index in
      gates[index].promise.map { partial + $0 }
    }.run { _ in delivered.increment() }
    gates[0].succeed(1)
    handle.cancel()
    #expect(gates[1].cancels.current == 1)
    gates[1].succeed(2)
    #expect(gates[2].starts.current == 0)
    #expect(delivered.current == 0)
    gates.forEach { $0.forget() }
  }

  @Test("100,000 steps that complete synchronously run in bounded stack and memory, on a 512 KiB thread")
  func manySynchronousStepsAreStackSafe() async {
    let outcome = Recorder<Int>()
    await onThread(stackSize: Self.smallStack) {
      let live = Counter()
      let peak = Counter()
      let folded = Promise<Int, TestError>(value: 0).fold(0..<Self.manySteps) { partial, _ in
        let token = LiveToken(live: live, peak: peak)
        return Promise { completion in withExtendedLifetime(token) { completion(.success(partial + 1)) } }
      }
      let delivered = Recorder<Int>()
      folded.run(some: { delivered.append($0) }, none: { _ in })
      outcome.append(delivered.all.first ?? -1)
      outcome.append(peak.current)
      outcome.append(live.current)
    }
    let values = outcome.all
    #expect(values[0] == Self.manySteps)
    #expect(values[1] < 2_000, "steps alive at once must not grow with the elements")
    #expect(values[2] == 0)
  }

  @Test("a future folds its steps in order, eagerly, and stops at the first failure")
  func futureFolds() {
    let calls = Recorder<Int>()
    let sum = Future<Int, TestError>(value: 0).fold(1...3) { partial, element in
      calls.append(element)
      return Future(value: partial + element)
    }
    #expect(calls.all == [1, 2, 3], "eager: the steps ran at once")
    #expect(sum.result == .success(6))
    let failed = Future<Int, TestError>(value: 0).fold(1...3) { partial, element in
      element == 2 ? Future(error: .code(2)) : Future(value: partial + element)
    }
    #expect(failed.result == .failure(.code(2)))
  }

  @Test("a future's steps wait for each other")
  func futureStepsWaitForEachOther() {
    let pending = (0..<2).map { _ in Future<Int, TestError>.makePending() }
    let sum = Future<Int, TestError>(value: 0).fold(0..<2) { partial, index in
      pending[index].future.map { partial + $0 }
    }
    pending[1].resolver.resolve(20)
    #expect(sum.result == nil)
    pending[0].resolver.resolve(1)
    #expect(sum.result == .success(21))
  }

  @Test("a future folds 100,000 synchronous steps in bounded stack, on a 512 KiB thread")
  func manySynchronousFutureStepsAreStackSafe() async {
    let outcome = Recorder<Int>()
    await onThread(stackSize: Self.smallStack) {
      let folded = Future<Int, TestError>(value: 0).fold(0..<Self.manySteps) { partial, _ in
        Future(value: partial + 1)
      }
      folded.observe { result in if case .success(let value) = result { outcome.append(value) } }
    }
    #expect(outcome.all == [Self.manySteps])
  }
}
