import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19.7 (error side): `mapError`, `flatMapError`, `recover`, `ensure`, `always`, `setFailureType`.
@Suite("Future errors — contract 19.7")
struct FutureErrorsTests {
  enum OtherError: Error, Equatable {
    case wrapped(TestError)
  }

  @Test("19.7 mapError transforms the error and lets a value pass")
  func mapErrorTransformsTheError() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let mapped = future.mapError { OtherError.wrapped($0) }
    resolver.reject(.first)
    #expect(mapped.result == .failure(.wrapped(.first)))
    #expect(Future<Int, TestError>(value: 1).mapError { OtherError.wrapped($0) }.result == .success(1))
  }

  @Test("19.7 flatMapError continues with the fallback future")
  func flatMapErrorContinuesWithTheFallback() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let (fallback, fallbackResolver) = Future<Int, OtherError>.makePending()
    let recovered = future.flatMapError { _ in fallback }
    resolver.reject(.second)
    #expect(recovered.result == nil)
    fallbackResolver.resolve(42)
    #expect(recovered.result == .success(42))
    #expect(Future<Int, TestError>(error: .first).flatMapError { _ in fallback }.result == .success(42))
  }

  @Test("19.7 recover replaces the error with a value; a value skips it")
  func recoverReplacesTheError() {
    let ran = Counter()
    let recovered = Future<Int, TestError>(error: .first).recover { _ in -1 }
    let skipped = Future<Int, TestError>(value: 5).recover { _ in
      ran.increment()
      return -1
    }
    #expect(recovered.result == .success(-1))
    #expect(skipped.result == .success(5))
    #expect(ran.current == 0)
  }

  @Test("19.7 ensure and always run once on either outcome and pass the result on")
  func ensureAndAlwaysRunOnBothOutcomes() {
    let (success, successResolver) = Future<Int, TestError>.makePending()
    let (failure, failureResolver) = Future<Int, TestError>.makePending()
    let ensured = Counter()
    let seen = Recorder<Result<Int, TestError>>()
    let first = success.ensure { ensured.increment() }.always { seen.append($0) }
    let second = failure.ensure { ensured.increment() }.always { seen.append($0) }
    #expect(ensured.current == 0)
    successResolver.resolve(1)
    failureResolver.reject(.first)
    #expect(ensured.current == 2)
    #expect(seen.all == [.success(1), .failure(.first)])
    #expect(first.result == .success(1))
    #expect(second.result == .failure(.first))
  }

  @Test("19.7 ensure on a completed future runs at once")
  func ensureOnCompletedFutureRunsAtOnce() {
    let ran = Counter()
    let future = Future<Int, TestError>(value: 3).ensure { ran.increment() }
    #expect(ran.current == 1)
    #expect(future.result == .success(3))
  }

  @Test("19.7 setFailureType lets a future that cannot fail chain with one that can")
  func setFailureTypeChains() {
    let (future, resolver) = Future<Int, Never>.makePending()
    let typed: Future<Int, TestError> = future.setFailureType(to: TestError.self)
      .then { $0 > 0 ? .success($0) : .failure(.first) }
    resolver.resolve(2)
    #expect(typed.result == .success(2))
  }

  @Test("19.7 a pending error stage waits for its input")
  func pendingErrorStageWaits() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let recovered = future.recover { _ in 0 }.map { $0 + 1 }
    #expect(recovered.result == nil)
    resolver.reject(.first)
    #expect(recovered.result == .success(1))
  }
}
