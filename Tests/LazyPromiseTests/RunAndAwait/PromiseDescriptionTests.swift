import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise+Description.swift`: what `print` and `debugPrint` show of a promise (without running it) and of a future.
@Suite("Descriptions — a promise's makeup and a future's state, in print and debugPrint")
struct PromiseDescriptionTests {
  @Test("a promise made from a value or an error shows it, in both descriptions")
  func knownResultIsShown() {
    #expect(String(describing: Promise<String, TestError>(value: "Queen")) == "Promise(value: Queen)")
    #expect(
      String(reflecting: Promise<String, TestError>(value: "Queen")) == "Promise<String, TestError>(value: \"Queen\")")
    #expect(String(describing: Promise<Int, TestError>(error: .first)) == "Promise(error: first)")
  }

  #if DEBUG
    @Test("a promise made from a task shows where it was made, and describing it does not run the task")
    func taskIsShownWithoutRunning() {
      let starts = Counter()
      let promise = Promise<Int, TestError> { completion in
        starts.increment()
        completion(.success(1))
      }
      let madeAt = site(#fileID, #line - 4)
      #expect(promise.description == "Promise(task made at \(madeAt))")
      #expect(promise.debugDescription == "Promise<Int, TestError>(task made at \(madeAt))")
      #expect(starts.current == 0)
    }
  #endif

  @Test("a chain shows its number of stages, 1, 2 and many, and describing it runs none of them")
  func chainShowsItsStageCount() {
    let starts = Counter()
    let root = Promise<Int, TestError> { completion, _ in
      starts.increment()
      completion(.success(1))
    }
    #expect(root.description == "Promise(1 stage)")
    #expect(root.map { $0 + 1 }.description == "Promise(2 stages)")
    var chain = Promise<Int, TestError>(value: 0)
    for _ in 0..<10 { chain = chain.map { $0 + 1 } }
    #expect(chain.description == "Promise(10 stages)")
    #expect(starts.current == 0)
  }

  @Test("a pending future shows pending; a completed one its value or error")
  func futureShowsItsState() {
    let (future, resolver) = Future<String, TestError>.makePending()
    #expect(future.description == "Future(pending)")
    #expect(future.debugDescription == "Future<String, TestError>(pending)")
    resolver.resolve("Queen")
    #expect(future.description == "Future(succeeded: Queen)")
    #expect(future.debugDescription == "Future<String, TestError>(succeeded: \"Queen\")")
    #expect(Future<Int, TestError>(error: .code(3)).description == "Future(failed: code(3))")
  }

  @Test("a cancelled future shows cancelled, and one that failed because its upstream was cancelled shows the error")
  func cancelledFutureShowsCancelled() {
    let (future, _) = Future<Int, CancellationError>.makePending()
    let derived = future.map { $0 + 1 }
    future.cancel()
    #expect(future.description == "Future(cancelled)")
    #expect(derived.description == "Future(failed: CancellationError())")
  }
}
