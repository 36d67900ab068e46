import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 14 (`Promise.catching { () throws(E) -> T in ... }`).
@Suite("Promise from throwing work — contract 14")
struct PromiseCatchingTests {
  @Sendable static func parse(_ text: String) throws(TestError) -> Int {
    guard let value = Int(text) else { throw .second }
    return value
  }

  @Test("14.1 the work runs on each run, never before: a return succeeds the run, a throw fails it")
  func workRunsOnRun() {
    let runs = Counter()
    let succeeding = Promise<Int, TestError>.catching { () throws(TestError) -> Int in
      runs.increment()
      return 7
    }
    let failing = Promise.catching { () throws(TestError) -> Int in try Self.parse("x") }
    #expect(runs.current == 0)
    #expect(Outcome(succeeding).result == .success(7))
    #expect(Outcome(succeeding).result == .success(7))
    #expect(runs.current == 2)
    #expect(Outcome(failing).result == .failure(.second))
  }

  @Test("14.1 the work runs on the thread that calls run, before run returns; Never work cannot throw")
  func workRunsSynchronously() {
    let values = Recorder<Int>()
    _ = Promise<Int, Never>.catching { 42 }.run(some: { values.append($0) })
    #expect(values.all == [42])
  }

  @Test("14.2 the completion-handler and async initializers still type-check as before")
  func existingInitializersStillWork() async {
    @Sendable func answer() async throws(TestError) -> Int { 42 }
    let plain = Promise<Int, TestError> { completion in completion(.success(1)) }
    let shorthand = Promise<Int, TestError> { $0(.success(2)) }
    let cancellable = Promise<Int, TestError> { completion, _ in completion(.success(3)) }
    let async = Promise { () throws(TestError) in try await answer() }
    #expect(Outcome(plain).result == .success(1))
    #expect(Outcome(shorthand).result == .success(2))
    #expect(Outcome(cancellable).result == .success(3))
    #expect(await async.result == .success(42))
  }
}
