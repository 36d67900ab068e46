import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 10 (value operators): `validate`, `unwrap(orFail:)`, `tap`, `asVoid`, `flatten`.
@Suite("Promise value operators — contract 10")
struct PromiseValueOperatorsTests {
  @Test("10.1 validate keeps a value the predicate accepts and fails with the given error otherwise")
  func validateKeepsOrFails() {
    let even = { (start: Int) in Promise<Int, TestError>(value: start).validate({ $0 % 2 == 0 }, else: .code(start)) }
    #expect(Outcome(even(4)).result == .success(4))
    #expect(Outcome(even(3)).result == .failure(.code(3)))
  }

  @Test("10.1 validate is lazy, runs its predicate once per run and skips it after a failure")
  func validateIsLazyAndShortCircuits() {
    let checks = Counter()
    let later = Counter()
    let checked = Promise<Int, TestError>(value: 1)
      .validate(
        { _ in
          checks.increment()
          return false
        }, else: .first
      )
      .tap { _ in later.increment() }
    #expect(checks.current == 0)
    #expect(Outcome(checked).result == .failure(.first))
    #expect(Outcome(checked).result == .failure(.first))
    #expect(checks.current == 2)
    #expect(later.current == 0)
    let skipped = Promise<Int, TestError>(error: .second).validate(
      { _ in
        checks.increment()
        return true
      }, else: .first)
    #expect(Outcome(skipped).result == .failure(.second))
    #expect(checks.current == 2)
  }

  @Test("10.1 validate runs on the thread that delivered the value")
  func validateRunsOnTheDeliveringThread() async {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "delivering")
    queue.setSpecific(key: key, value: "delivering")
    let seen = Recorder<String?>()
    let promise = Promise<Int, TestError> { completion in
      queue.async { completion(.success(7)) }
    }.validate(
      { _ in
        seen.append(DispatchQueue.getSpecific(key: key))
        return true
      }, else: .first)
    #expect(await promise.result == .success(7))
    #expect(seen.all == ["delivering"])
  }

  @Test("10.2 unwrap(orFail:) unwraps a value and fails with the given error on nil")
  func unwrapUnwrapsOrFails() {
    #expect(Outcome(Promise<Int?, TestError>(value: 5).unwrap(orFail: .first)).result == .success(5))
    #expect(Outcome(Promise<Int?, TestError>(value: nil).unwrap(orFail: .first)).result == .failure(.first))
    #expect(Outcome(Promise<Int?, TestError>(error: .second).unwrap(orFail: .first)).result == .failure(.second))
  }

  @Test("10.3 tap sees each value once per run and passes it on; a failure skips it")
  func tapSeesValuesOnly() {
    let seen = Recorder<Int>()
    let tapped = Promise<Int, TestError>(value: 3).tap { seen.append($0) }
    #expect(seen.all.isEmpty)
    #expect(Outcome(tapped).result == .success(3))
    #expect(Outcome(tapped).result == .success(3))
    #expect(Outcome(Promise<Int, TestError>(error: .first).tap { seen.append($0) }).result == .failure(.first))
    #expect(seen.all == [3, 3])
  }

  @Test("10.3 tap does not run once the run is cancelled")
  func tapSkippedAfterCancel() {
    let gate = ManualTask<Int, TestError>()
    let seen = Recorder<Int>()
    let outcome = Outcome(gate.promise.tap { seen.append($0) })
    outcome.handle.cancel()
    gate.succeed(1)
    #expect(seen.all.isEmpty)
    #expect(outcome.result == nil)
  }

  @Test("10.4 asVoid drops the value and keeps the error")
  func asVoidDropsTheValue() {
    var succeeded = false
    if case .success = Outcome(Promise<Int, TestError>(value: 1).asVoid()).result { succeeded = true }
    #expect(succeeded)
    guard case .failure(let error)? = Outcome(Promise<Int, TestError>(error: .second).asVoid()).result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error == .second)
  }

  @Test("10.5 flatten runs the inner promise once per run and delivers its result")
  func flattenRunsTheInnerPromise() {
    let innerRuns = Counter()
    let inner = Promise<Int, TestError> { completion in
      innerRuns.increment()
      completion(.success(innerRuns.current))
    }
    let flat: Promise<Int, TestError> = Promise<Promise<Int, TestError>, TestError>(value: inner).flatten()
    #expect(innerRuns.current == 0)
    #expect(Outcome(flat).result == .success(1))
    #expect(Outcome(flat).result == .success(2))
    let failingInner = Promise<Promise<Int, TestError>, TestError>(value: Promise(error: .first)).flatten()
    #expect(Outcome(failingInner).result == .failure(.first))
  }

  @Test("10.5 flatten skips the inner promise when the outer one fails, and cancel reaches the inner run")
  func flattenShortCircuitsAndCancels() {
    let outer = Promise<Promise<Int, TestError>, TestError>(error: .second)
    #expect(Outcome(outer.flatten()).result == .failure(.second))
    let gate = ManualTask<Int, TestError>()
    let outcome = Outcome(Promise<Promise<Int, TestError>, TestError>(value: gate.promise).flatten())
    #expect(gate.starts.current == 1)
    outcome.handle.cancel()
    #expect(gate.cancels.current == 1)
    #expect(outcome.result == nil)
  }
}
