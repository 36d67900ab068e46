import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 21: `zip`.
@Suite("Promise zip — contract 21")
struct PromiseZipTests {
  @Test("21.1 nothing starts before the zipped promise runs; each run starts every input again")
  func nothingStartsBeforeRun() {
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<String, TestError>()
    let zipped = zip(first.promise, second.promise)
    #expect(first.starts.current == 0 && second.starts.current == 0)
    _ = Outcome(zipped)
    _ = Outcome(zipped)
    #expect(first.starts.current == 2 && second.starts.current == 2)
  }

  @Test("21.1 inputs start in argument order")
  func inputsStartInArgumentOrder() {
    let order = Recorder<String>()
    func input(_ name: String) -> Promise<String, TestError> {
      Promise { completion in
        order.append(name)
        completion(.success(name))
      }
    }
    let outcome = Outcome(zip(input("a"), input("b"), input("c")))
    #expect(order.all == ["a", "b", "c"])
    #expect(outcome.result.map { $0.map { "\($0.0)\($0.1)\($0.2)" } } == .success("abc"))
  }

  @Test("21.2 two inputs give a pair in argument order, whatever order they finish in")
  func twoInputsGiveAPair() throws {
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<String, TestError>()
    let outcome = Outcome(zip(first.promise, second.promise))
    second.succeed("two")
    #expect(outcome.result == nil)
    first.succeed(1)
    let (number, text) = try #require(try outcome.result?.get())
    #expect(number == 1 && text == "two")
  }

  @Test("21.2 eight inputs of different types give an 8-tuple in argument order")
  func eightInputsGiveAnEightTuple() async throws {
    let zipped = zip(
      later(1), Promise<String, TestError>(value: "2"), later(3.0), Promise<Bool, TestError>(value: true),
      later([5]), Promise<Character, TestError>(value: "6"), later(UInt8(7)), Promise<Int?, TestError>(value: nil))
    let values = try await zipped.result.get()
    #expect(values.0 == 1 && values.1 == "2" && values.2 == 3.0 && values.3)
    #expect(values.4 == [5] && values.5 == "6" && values.6 == 7 && values.7 == nil)
  }

  @Test("21.3 the first failure is delivered at once and the running inputs are cancelled")
  func firstFailureCancelsTheRest() {
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<Int, TestError>()
    let third = ManualTask<Int, TestError>()
    let outcome = Outcome(zip(first.promise, second.promise, third.promise))
    first.succeed(1)
    second.fail(.code(2))
    #expect(outcome.result.map { $0.map { _ in 0 } } == .failure(.code(2)))
    #expect(first.cancels.current == 0, "a finished input is not cancelled")
    #expect(third.cancels.current == 1)
  }

  @Test("21.4 cancelling the zipped run cancels every running input and delivers nothing")
  func cancellingCancelsEveryInput() {
    let first = ManualTask<Int, TestError>()
    let second = ManualTask<Int, TestError>()
    let outcome = Outcome(zip(first.promise, second.promise))
    outcome.handle.cancel()
    #expect(first.cancels.current == 1 && second.cancels.current == 1)
    first.succeed(1)
    second.succeed(2)
    #expect(outcome.result == nil)
  }
}
