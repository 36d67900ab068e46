import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 3: short-circuit.
@Suite("Contract 3 — short-circuit")
struct ContractShortCircuitTests {
  @Test("3.1 the first failure skips every later value stage", arguments: [0, 1, 2, 10])
  func firstFailureSkipsRemainingStages(laterStages: Int) {
    let stageCalls = Counter()
    var promise = Promise<Int, TestError>(value: 1).then { _ -> Result<Int, TestError> in .failure(.first) }
    for _ in 0..<laterStages {
      promise = promise.map { value in
        stageCalls.increment()
        return value
      }
      .then { value -> Promise<Int, TestError> in
        stageCalls.increment()
        return Promise(value: value)
      }
    }
    let errors = Recorder<TestError>()
    promise.run(some: { _ in Issue.record("unexpected value") }, none: { errors.append($0) })
    #expect(stageCalls.current == 0)
    #expect(errors.all == [.first])
  }

  @Test("3.2 the error arrives unchanged and typed, from a task, a Result stage or an inner promise")
  func errorArrivesUnchangedAndTyped() {
    let fromTask = Promise<Int, TestError> { $0(.failure(.code(1))) }.map { $0 + 1 }
    let fromResult = Promise<Int, TestError>(value: 1).then { _ -> Result<Int, TestError> in .failure(.code(2)) }
      .map { $0 + 1 }
    let fromInner = Promise<Int, TestError>(value: 1).then { _ in Promise<Int, TestError>(error: .code(3)) }
      .map { $0 + 1 }
    let errors = Recorder<TestError>()
    for promise in [fromTask, fromResult, fromInner] {
      promise.run(some: { _ in Issue.record("unexpected value") }, none: { (error: TestError) in errors.append(error) })
    }
    #expect(errors.all == [.code(1), .code(2), .code(3)])
  }
}
