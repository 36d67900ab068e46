import LazyPromise
import LazyPromiseTestSupport
import Testing

// Future's `then` reads its stages as Promise's does (FutureThenBuilder, FutureThenStep): inline closures of the
// three shapes and function references compile in long chains, flatten a Result or Future of the chain's error
// type, and deliver. The type-check times are measured by Benchmarks/TypeCheck/TypeCheck.sh, not here.

private enum StepError: Error, Equatable {
  case negative
  case other
}

@Sendable private func fetch(_ x: Int) -> Future<Int, StepError> { Future(value: x + 100) }
@Sendable private func validate(_ x: Int) -> Result<Int, StepError> { x < 0 ? .failure(.negative) : .success(x) }
@Sendable private func double(_ x: Int) -> Int { x * 2 }

/// Fails to compile unless `value` has exactly the type `type`.
private func expectType<T>(_ value: T, _ type: T.Type) {}

/// Twenty stages cycling through the inline shapes and the function references (five of each kind); before
/// FutureThenBuilder, five unannotated inline stages did not type-check.
private func twentyMixedStages(from start: Int) -> Future<Int, StepError> {
  Future<Int, StepError>(value: start)
    .then { $0 + 1 }.then { $0 < 0 ? .failure(.negative) : .success($0 + 1) }.then { fetch($0) }.then(validate)
    .then { $0 + 1 }.then { $0 < 0 ? .failure(.negative) : .success($0 + 1) }.then { fetch($0) }.then(validate)
    .then { $0 + 1 }.then { $0 < 0 ? .failure(.negative) : .success($0 + 1) }.then { fetch($0) }.then(validate)
    .then { $0 + 1 }.then { $0 < 0 ? .failure(.negative) : .success($0 + 1) }.then { fetch($0) }.then(validate)
    .then { $0 + 1 }.then { $0 < 0 ? .failure(.negative) : .success($0 + 1) }.then { fetch($0) }.then(double)
}

@Suite("Future then with inline closures — issue 9")
struct FutureThenInlineClosureTests {
  @Test("19.7 twenty mixed inline then stages on a future compile and deliver at once")
  func twentyMixedInlineStagesCompileAndDeliver() {
    let chain = twentyMixedStages(from: 0)
    expectType(chain, Future<Int, StepError>.self)
    // (((0 + 2 + 100) × 5 rounds) then double): each round adds 102.
    #expect(chain.result == .success(510 * 2))
  }

  @Test("19.7 a future's then closure returning a Result flattens it, and its failure skips the later value stages")
  func aResultClosureFlattensAndAFailureSkipsTheRest() {
    let later = Counter()
    let failing = Future<Int, StepError>(value: -1)
      .then { $0 < 0 ? .failure(.negative) : .success($0) }
      .then { value in
        later.increment()
        return value
      }
    expectType(failing, Future<Int, StepError>.self)
    #expect(failing.result == .failure(.negative))
    #expect(later.current == 0)
  }

  @Test(
    "19.7 a future's then closure or function returning a future continues with that future's result when it arrives")
  func aFutureReturningClosureOrFunctionContinuesWithItsResult() {
    let (pending, resolver) = Future<Int, StepError>.makePending()
    let inline = Future<Int, StepError>(value: 1).then { _ in pending }
    let reference = Future<Int, StepError>(value: 1).then(fetch)
    expectType(inline, Future<Int, StepError>.self)
    #expect(inline.result == nil)
    resolver.resolve(7)
    #expect(inline.result == .success(7))
    #expect(reference.result == .success(101))
  }

  @Test("19.7 a future's then closure with branches or declarations delivers its value, and an empty one delivers Void")
  func branchesDeclarationsAndAnEmptyBody() {
    let start = Future<Int, StepError>(value: 3)
    let branched = start.then { x in
      let doubled = x * 2
      if doubled > 5 { doubled } else { -doubled }
    }
    let empty = start.then { _ in }
    expectType(branched, Future<Int, StepError>.self)
    expectType(empty, Future<Void, StepError>.self)
    #expect(branched.result == .success(6))
    #expect(empty.result.map { (try? $0.get()) != nil } == true)
  }

  @Test("19.7 a future's then closure returning a bare failure takes the value type written in its signature")
  func aBareFailureTakesTheWrittenValueType() {
    let failed = Future<Int, StepError>(value: 1).then { _ -> Result<String, StepError> in .failure(.other) }
    expectType(failed, Future<String, StepError>.self)
    #expect(failed.result == .failure(.other))
  }

  @Test("10.6 on a future, a then closure's Result of another error type is delivered as a plain value")
  func aResultOfAnotherErrorTypeIsAValue() {
    let nested = Future<Int, StepError>(value: 1).then { Result<Int, TestError>.success($0) }
    expectType(nested, Future<Result<Int, TestError>, StepError>.self)
    #expect(nested.result == .success(.success(1)))
  }

  @Test("19.7 key paths and value functions passed to a future's then map its value")
  func keyPathsAndValueFunctionsUseTheValueOverload() {
    let counted = Future<[Int], StepError>(value: [1, 2, 3]).then(\.count).then(double)
    expectType(counted, Future<Int, StepError>.self)
    #expect(counted.result == .success(6))
  }
}
