import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 15 (`Promise.first(of:where:)`).
@Suite("Promise first(of:where:) — contract 15")
struct PromiseFirstTests {
  @Test("15.1 nothing starts before the combined promise runs; each run starts every input again")
  func nothingStartsBeforeRun() {
    let starts = Counter()
    let inputs = (0..<3).map { value in
      Promise<Int, TestError> { completion in
        starts.increment()
        completion(.success(value))
      }
    }
    let firstOdd = Promise.first(of: inputs, where: { $0 % 2 == 1 })
    #expect(starts.current == 0)
    #expect(Outcome(firstOdd).result == .success(1))
    #expect(Outcome(firstOdd).result == .success(1))
  }

  @Test("15.2 the first accepted value to arrive wins and the others are cancelled; failures do not end the search")
  func firstAcceptedValueWins() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.first(of: gates.map(\.promise), where: { $0 > 10 }))
    gates[2].succeed(5)
    gates[0].fail(.first)
    #expect(outcome.result == nil)
    gates[3].succeed(20)
    #expect(outcome.result == .success(20))
    #expect(gates.map(\.cancels.current) == [0, 1, 0, 0])
  }

  @Test("15.3 no accepted value: the first failure in input order, or nil when every input succeeded")
  func noAcceptedValue() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.first(of: gates.map(\.promise), where: { $0 > 10 }))
    gates[2].fail(.second)
    gates[0].succeed(1)
    gates[1].fail(.first)
    #expect(outcome.result == .failure(.first))
    let values = (0..<3).map { Promise<Int, TestError>(value: $0) }
    #expect(Outcome(Promise.first(of: values, where: { $0 > 10 })).result == .success(nil))
  }

  @Test("15.4 no inputs: a run succeeds with nil at once")
  func noInputsGiveNil() {
    #expect(Outcome(Promise.first(of: [Promise<Int, TestError>](), where: { _ in true })).result == .success(nil))
  }

  @Test("15.5 the predicate runs once per value, and cancelling the run cancels every running input")
  func predicateOncePerValueAndCancel() {
    let checks = Counter()
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(
      Promise.first(
        of: gates.map(\.promise),
        where: { _ in
          checks.increment()
          return false
        }))
    gates[0].succeed(1)
    outcome.handle.cancel()
    #expect(gates.map(\.cancels.current) == [0, 1, 1])
    gates[1].succeed(2)
    #expect(checks.current == 1)
    #expect(outcome.result == nil)
  }
}
