import LazyPromise
import LazyPromiseTestSupport
import Testing

enum OtherError: Error, Equatable {
  case wrapped(TestError)
  case fallback
}

@Suite("Promise error operators")
struct PromiseErrorsTests {
  @Test("mapError transforms the error and passes values on unchanged")
  func mapErrorTransformsTheErrorAndKeepsValues() {
    let errors = Recorder<OtherError>()
    let values = Recorder<Int>()
    Promise<Int, TestError>(error: .first).mapError(OtherError.wrapped).run(
      some: { values.append($0) }, none: { errors.append($0) })
    Promise<Int, TestError>(value: 3).mapError(OtherError.wrapped).run(
      some: { values.append($0) }, none: { errors.append($0) })
    #expect(errors.all == [.wrapped(.first)])
    #expect(values.all == [3])
  }

  @Test("flatMapError runs its fallback promise only on a failure, and delivers the fallback's value")
  func flatMapErrorRunsTheFallbackOnlyOnFailure() {
    let fallbackRuns = Counter()
    let fallback = Promise<Int, OtherError> { completion in
      fallbackRuns.increment()
      completion(.success(99))
    }
    let values = Recorder<Int>()
    Promise<Int, TestError>(error: .first).flatMapError { _ in fallback }.run(
      some: { values.append($0) }, none: { _ in })
    Promise<Int, TestError>(value: 1).flatMapError { _ in fallback }.run(some: { values.append($0) }, none: { _ in })
    #expect(values.all == [99, 1])
    #expect(fallbackRuns.current == 1)
  }

  @Test("recover turns the error into a value and gives a promise that cannot fail")
  func recoverGivesAPromiseThatCannotFail() {
    let values = Recorder<String>()
    let recovered: Promise<String, Never> = Promise<String, TestError>(error: .second).recover { "\($0)" }
    recovered.run(some: { values.append($0) })
    #expect(values.all == ["second"])
  }

  @Test("ensure runs on both outcomes and passes the result on unchanged")
  func ensureRunsOnBothOutcomesAndPassesTheResultOn() {
    let cleanups = Counter()
    let results = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError>(value: 1).ensure { cleanups.increment() }.run { results.append($0) }
    Promise<Int, TestError>(error: .first).ensure { cleanups.increment() }.run { results.append($0) }
    #expect(cleanups.current == 2)
    #expect(results.all == [.success(1), .failure(.first)])
  }

  @Test("3.1, 3.2 attemptMap fails with the typed error, which skips every later value stage")
  func attemptMapFailsWithTheTypedErrorAndSkipsTheRest() {
    let values = Recorder<Int>()
    let errors = Recorder<TestError>()
    let laterStages = Counter()
    for start in [1, -1] {
      Promise<Int, TestError>(value: start)
        .attemptMap { $0 < 0 ? .failure(.code($0)) : .success($0 * 10) }
        .map { value in
          laterStages.increment()
          return value
        }
        .run(some: { values.append($0) }, none: { errors.append($0) })
    }
    #expect(values.all == [10])
    #expect(errors.all == [.code(-1)])
    #expect(laterStages.current == 1)
  }

  @Test("10.3 always observes the result, a failure included")
  func alwaysObservesTheResult() {
    let seen = Recorder<Result<Int, TestError>>()
    Promise<Int, TestError>(error: .code(4)).always { seen.append($0) }.run { _ in }
    #expect(seen.all == [.failure(.code(4))])
  }

  @Test("3.2 setFailureType lets a promise that cannot fail chain a failing stage, whose typed error arrives unchanged")
  func setFailureTypeLetsANeverPromiseChainWithFailingStages() {
    let errors = Recorder<TestError>()
    Promise<Int, Never>(value: 1).setFailureType(to: TestError.self)
      .then { _ -> Result<Int, TestError> in .failure(.second) }
      .run(some: { _ in }, none: { errors.append($0) })
    #expect(errors.all == [.second])
  }
}
