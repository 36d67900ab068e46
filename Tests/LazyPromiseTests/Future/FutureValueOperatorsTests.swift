import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19.7 for the value operators of `Future`: `validate`, `unwrap(orFail:)`, `tap`, `asVoid`, `flatten`.
@Suite("Future value operators — contract 19.7")
struct FutureValueOperatorsTests {
  @Test("19.7 validate keeps an accepted value, fails a rejected one and lets an error pass")
  func validateKeepsOrFails() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let checks = Counter()
    let checked = future.validate(
      { value in
        checks.increment()
        return value > 0
      }, else: .first)
    #expect(checks.current == 0)
    resolver.resolve(-1)
    #expect(checked.result == .failure(.first))
    #expect(checks.current == 1)
    #expect(Future<Int, TestError>(value: 2).validate({ $0 > 0 }, else: .first).result == .success(2))
    #expect(Future<Int, TestError>(error: .second).validate({ $0 > 0 }, else: .first).result == .failure(.second))
  }

  @Test("19.7 unwrap(orFail:) unwraps a value and fails on nil")
  func unwrapUnwrapsOrFails() {
    #expect(Future<Int?, TestError>(value: 1).unwrap(orFail: .first).result == .success(1))
    #expect(Future<Int?, TestError>(value: nil).unwrap(orFail: .first).result == .failure(.first))
  }

  @Test("19.7 tap runs once with the value, eagerly; a failure skips it")
  func tapRunsOnceWithTheValue() {
    let seen = Recorder<Int>()
    let (future, resolver) = Future<Int, TestError>.makePending()
    let tapped = future.tap { seen.append($0) }
    resolver.resolve(9)
    tapped.observe { _ in }
    tapped.observe { _ in }
    #expect(tapped.result == .success(9))
    _ = Future<Int, TestError>(error: .first).tap { seen.append($0) }
    #expect(seen.all == [9])
  }

  @Test("19.7 asVoid drops the value and keeps the error")
  func asVoidDropsTheValue() {
    guard case .success? = Future<Int, TestError>(value: 1).asVoid().result else {
      Issue.record("expected a success")
      return
    }
    guard case .failure(.second)? = Future<Int, TestError>(error: .second).asVoid().result else {
      Issue.record("expected the error")
      return
    }
  }

  @Test("19.7 flatten completes with the inner future's result")
  func flattenCompletesWithTheInnerResult() {
    let (inner, innerResolver) = Future<Int, TestError>.makePending()
    let flat: Future<Int, TestError> = Future<Future<Int, TestError>, TestError>(value: inner).flatten()
    #expect(flat.result == nil)
    innerResolver.resolve(4)
    #expect(flat.result == .success(4))
    #expect(Future<Future<Int, TestError>, TestError>(error: .first).flatten().result == .failure(.first))
  }
}
