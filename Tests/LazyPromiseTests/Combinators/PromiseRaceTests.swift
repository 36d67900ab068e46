import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 24 (`race`) and 25 (`any`).
@Suite("Promise race and any — contract 24, 25")
struct PromiseRaceTests {
  @Test("24.1 the first value to arrive wins and the losers are cancelled")
  func firstValueWins() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.race(gates[0].promise, gates[1].promise, gates[2].promise))
    #expect(gates.map(\.starts.current) == [1, 1, 1])
    gates[1].succeed(1)
    #expect(outcome.result == .success(1))
    #expect(gates.map(\.cancels.current) == [1, 0, 1])
    gates[0].succeed(0)
    #expect(outcome.result == .success(1))
  }

  @Test("24.1 the first error to arrive wins too")
  func firstErrorWins() {
    let gates = (0..<2).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.race(gates.map(\.promise)))
    gates[0].fail(.second)
    #expect(outcome.result == .failure(.second))
    #expect(gates[1].cancels.current == 1)
  }

  @Test("24.1 a race of one is that promise; synchronous inputs: the first in order wins")
  func raceOfOneAndSynchronousInputs() {
    #expect(Outcome(Promise.race(Promise<Int, TestError>(value: 4))).result == .success(4))
    let late = ManualTask<Int, TestError>()
    let outcome = Outcome(Promise.race([Promise(value: 1), Promise(value: 2), late.promise]))
    #expect(outcome.result == .success(1))
    #expect(late.starts.current == 0, "the race was decided before it could start")
  }

  @Test("24.2 a race of an empty array succeeds with nil at once")
  func raceOfNothing() {
    #expect(Outcome(Promise<Int, TestError>.race([])).result == .success(nil))
  }

  @Test("25.1 any delivers the first value and cancels the others; failures before it are ignored")
  func anyDeliversTheFirstValue() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.any(gates.map(\.promise)))
    gates[0].fail(.first)
    #expect(outcome.result == nil)
    gates[2].succeed(2)
    #expect(outcome.result == .success(2))
    #expect(gates.map(\.cancels.current) == [0, 1, 0])
  }

  @Test("25.2 when every input fails, any fails with every error in input order")
  func anyFailsWithEveryError() {
    let gates = (0..<3).map { _ in ManualTask<Int, TestError>() }
    let outcome = Outcome(Promise.any(gates.map(\.promise)))
    gates[1].fail(.code(1))
    gates[2].fail(.code(2))
    gates[0].fail(.code(0))
    #expect(outcome.result == .failure(AllFailedError(errors: [.code(0), .code(1), .code(2)])))
  }

  @Test("25.3 any of no inputs fails at once with no errors")
  func anyOfNothing() {
    #expect(Outcome(Promise<Int, TestError>.any([])).result == .failure(AllFailedError(errors: [])))
  }

  @Test("24.1, 25.1 cancelling a race or any cancels every input and delivers nothing")
  func cancellingCancelsEveryInput() {
    let gates = (0..<4).map { _ in ManualTask<Int, TestError>() }
    let race = Outcome(Promise.race(gates[0].promise, gates[1].promise))
    let any = Outcome(Promise.any([gates[2].promise, gates[3].promise]))
    race.handle.cancel()
    any.handle.cancel()
    #expect(gates.map(\.cancels.current) == [1, 1, 1, 1])
    for gate in gates { gate.succeed(0) }
    #expect(race.result == nil)
    #expect(any.result == nil)
  }
}
