import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise.swift`: the promise type, its task typealiases and its initialisers.
@Suite("Promise — making a promise from a task, a cancellable task or a result")
struct PromiseTests {
  init() { DiagnosticsCollector.install() }

  @Test("1.2, 2.4 a task runs on the thread that calls run, each time run is called")
  func taskRunsOnTheCallingThread() {
    let key = DispatchSpecificKey<Int>()
    let seen = Recorder<Int?>()
    let promise = Promise<Int, TestError> { completion in
      seen.append(DispatchQueue.getSpecific(key: key))
      completion(.success(1))
    }
    #expect(seen.count == 0)
    for number in 1...2 {
      let caller = DispatchQueue(label: "caller \(number)")
      caller.setSpecific(key: key, value: number)
      caller.sync { _ = promise.run { _ in } }
    }
    promise.run { _ in }
    #expect(seen.all == [1, 2, nil])
  }

  @Test("the task typealiases describe closures that can be stored and made into promises")
  func typealiasesDescribeStorableClosures() async {
    let completed: Promise<Int, TestError>.Completion = { result in #expect(result == .success(3)) }
    let task: Promise<Int, TestError>.AsyncTask = { completion in completion(.success(3)) }
    let cancellable: Promise<Int, TestError>.CancellableTask = { completion, onCancel in
      onCancel {}
      completion(.success(3))
    }
    Promise(task).run(completed)
    Promise(cancellable).run(completed)
    #expect(await Promise(task).result == .success(3))
    #expect(await Promise(cancellable).result == .success(3))
  }

  @Test(
    "7.2, 7.3 a cancellable task's cancel handlers run once when its run is cancelled, and its late result is dropped")
  func cancellableTaskStopsOnCancel() {
    let stops = Counter()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let promise = Promise<Int, TestError> { completion, onCancel in
      pending.append(completion)
      onCancel { stops.increment() }
    }
    let delivered = Recorder<Result<Int, TestError>>()
    let handle = promise.run { delivered.append($0) }
    #expect(stops.current == 0)
    handle.cancel()
    handle.cancel()
    pending.all.first?(.success(1))
    #expect(stops.current == 1)
    #expect(delivered.all.isEmpty)
  }

  @Test("7.3 a cancellable task that completes synchronously delivers, and its cancel handlers never run")
  func cancellableTaskCompletingSynchronously() {
    let stops = Counter()
    let outcome = Outcome(
      Promise<Int, TestError> { completion, onCancel in
        completion(.success(2))
        onCancel { stops.increment() }  // registered after completing: the run is over, so it never runs
      })
    #expect(outcome.result == .success(2))
    outcome.handle.cancel()
    #expect(stops.current == 0)
  }

  @Test("1.3 init(result:), init(value:) and init(error:) deliver the same result on every run")
  func resultInitialisersDeliverTheirResult() {
    let made: [(Promise<Int, TestError>, Result<Int, TestError>)] = [
      (Promise(result: .success(1)), .success(1)),
      (Promise(result: .failure(.second)), .failure(.second)),
      (Promise(value: 2), .success(2)),
      (Promise(error: .code(3)), .failure(.code(3))),
    ]
    for (promise, expected) in made {
      #expect(Outcome(promise).result == expected)
      #expect(Outcome(promise).result == expected)
    }
  }

  @Test("a promise of a Sendable value is Sendable: it can be run from another task")
  func promiseOfSendableValueIsSendable() async {
    let promise = Promise<Int, TestError>(value: 4).map { $0 + 1 }
    let fromAnotherTask = await Task.detached { await promise.result }.value
    #expect(fromAnotherTask == .success(5))
  }

  #if DEBUG
    @Test("4.2 the file and line given to init are the site a diagnostic names")
    func fileAndLineNameTheDiagnosticSite() {
      let promise = Promise<Int, TestError>(file: "App/Fetch.swift", line: 12) { completion in
        completion(.success(1))
        completion(.success(2))
      }
      promise.run { _ in }
      #expect(
        DiagnosticsCollector.reports(at: "App/Fetch.swift:12")
          == [PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Fetch.swift:12")])
    }

    @Test("5.1 a cancellable task made at a given file and line reports a lost completion with that site")
    func cancellableTaskReportsItsSite() {
      let promise = Promise<Int, TestError>(file: "App/Upload.swift", line: 40) { completion, _ in
        _ = completion  // dropped without being called
      }
      promise.run { _ in }
      #expect(
        DiagnosticsCollector.reports(at: "App/Upload.swift:40").map(\.kind) == [.completionReleasedWithoutBeingCalled])
    }
  #endif
}
