import LazyPromise
import LazyPromiseTestSupport
import Testing

// Pins what issue 9 asked for: the natural inline `then` chains compile (they are type-checked here, as part of
// this test target), pick the flattening meaning, and deliver. The type-check *times* are measured by
// Benchmarks/TypeCheck/TypeCheck.sh, not here.

private enum StageError: Error, Equatable {
  case noResult
  case negative
}

@Sendable private func fetchMore(_ x: Int) -> Promise<Int, StageError> { Promise(value: x + 100) }
@Sendable private func validate(_ x: Int) -> Result<Int, StageError> { x < 0 ? .failure(.negative) : .success(x) }
@Sendable private func double(_ x: Int) -> Int { x * 2 }

/// Twenty inline stages, built in a synchronous function: in an `async` function, long chains of unannotated
/// inline `then` closures still exceed the type checker's budget (Docs/Troubleshooting.md, "What is
/// not fast yet").
private func twentyPlainStages() -> Promise<Int, StageError> {
  Promise<Int, StageError>(value: 0)
    .then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }
    .then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }
    .then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }
    .then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }.then { $0 + 1 }
}

/// Fails to compile unless `value` has exactly the type `type`.
private func expectType<T>(_ value: T, _ type: T.Type) {}

@Suite("then with inline closures — issue 9")
struct ThenInlineClosureTests {
  @Test("2.1 issue 9's six-stage chain of inline closures compiles and delivers")
  func theIssuesSixStageChainCompilesAndDelivers() async {
    let chain = Promise<Int, StageError>(value: 2)
      .then { $0 * 10 }
      .then { x -> Result<Int, StageError> in x > 5 ? .success(x + 1) : .failure(.noResult) }
      .then { x in Promise<Int, StageError>(value: x * 2) }
      .map { $0 + 0 }
      .flatMap { Promise(value: $0) }
    expectType(chain, Promise<Int, StageError>.self)
    #expect(await chain.result == .success(42))
  }

  @Test("2.1 twenty plain inline then stages compile and deliver")
  func twentyPlainInlineStagesCompileAndDeliver() async {
    #expect(await twentyPlainStages().result == .success(20))
  }

  @Test("3.1, 3.2 a single-expression then closure's failed Result fails the chain, typed, and skips the later stages")
  func aSingleExpressionResultClosureFlattensAndShortCircuits() async {
    let stagesAfterFailure = Counter()
    let failing = Promise<Int, StageError>(value: -3)
      .then { $0 < 0 ? .failure(.negative) : .success($0) }
      .then { _ in stagesAfterFailure.increment() }
    expectType(failing, Promise<Int, StageError>.self)
    #expect(await failing.result == .failure(.negative))
    #expect(stagesAfterFailure.current == 0)
  }

  @Test("then with an inline closure returning a promise runs the inner promise and delivers its value")
  func aPromiseReturningClosureRunsTheInnerPromise() async {
    let chain = Promise<Int, StageError>(value: 1).then { fetchMore($0) }.then { x in fetchMore(x) }
    expectType(chain, Promise<Int, StageError>.self)
    #expect(await chain.result == .success(201))
  }

  @Test("then closures whose branches produce values of one shape, plain or Result, deliver the branch that runs")
  func branchesMayProduceValuesOfOneShape() async {
    let chain = Promise<Int, StageError>(value: -4)
      .then { x in if x > 0 { x } else { -x } }
      .then { x in
        switch x {
        case 0: Result<Int, StageError>.failure(.noResult)
        default: .success(x * 10)
        }
      }
    #expect(await chain.result == .success(40))
  }

  @Test("a then closure may declare values before the expression it delivers")
  func declarationsMayComeBeforeTheExpression() async {
    let chain = Promise<Int, StageError>(value: 3).then { x in
      let doubled = x * 2
      fetchMore(doubled)
    }
    #expect(await chain.result == .success(106))
  }

  @Test("an empty then closure produces a promise of Void")
  func anEmptyClosureProducesVoid() async {
    let chain = Promise<Int, StageError>(value: 3).then { _ in }
    expectType(chain, Promise<Void, StageError>.self)
    #expect(await chain.result.map { true } == .success(true))
  }

  @Test("2.1 multi-statement then closures with return and a written result type, one of each shape, run in order")
  func multiStatementClosuresWithReturnAndAResultType() async {
    let chain = Promise<Int, StageError>(value: 1)
      .then { x -> Int in
        let y = x + 1
        return y * 2
      }
      .then { x -> Result<Int, StageError> in
        if x >= 0 { return .success(x + 1) }
        return .failure(.negative)
      }
      .then { x -> Promise<Int, StageError> in
        let y = x + 1
        return fetchMore(y)
      }
    #expect(await chain.result == .success(106))
  }

  @Test("2.1 function references and key paths mix with inline closures in one chain, run in order")
  func functionReferencesAndKeyPathsMixWithInlineClosures() async {
    let chain = Promise<Int, StageError>(value: 1)
      .map { $0 + 1 }
      .then(validate)
      .then { $0 * 3 }
      .then(fetchMore)
      .then(double)
      .then { String($0) }
      .then(\.count)
    expectType(chain, Promise<Int, StageError>.self)
    #expect(await chain.result == .success(3))  // "212"
  }

  @Test("10.6 a Result of another error type that map returns is a value, not a failure")
  func aResultOfAnotherErrorTypeIsAValueNotAFailure() async {
    struct Other: Error, Equatable {}
    // `map` keeps it as a value; `then` would too, with a warning that names mapError (contract 10.6).
    let chain = Promise<Int, StageError>(value: 1).map { _ in Result<Int, Other>.failure(Other()) }
    expectType(chain, Promise<Result<Int, Other>, StageError>.self)
    #expect(await chain.result == .success(.failure(Other())))
  }

  @Test("inline then closures compile inside an async function and deliver")
  func inlineClosuresCompileInsideAnAsyncFunction() async {
    let chain = Promise<Int, StageError>(value: 1)
      .then { $0 + 1 }
      .then(validate)
      .then { fetchMore($0) }
      .map { $0 * 2 }
    #expect(await chain.result == .success(204))
  }
}
