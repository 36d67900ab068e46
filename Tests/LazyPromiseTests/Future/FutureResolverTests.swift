import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Future+Resolver.swift`: `Future.makePending()` and the `Resolver` that completes the future.
@Suite("Future resolver — a pending future and the writer that completes it")
struct FutureResolverTests {
  init() { DiagnosticsCollector.install() }

  @Test("19.3 makePending gives a pending future: no result and no observer runs until the resolver completes it")
  func makePendingGivesAPendingFuture() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let observed = Recorder<Result<Int, TestError>>()
    future.observe { observed.append($0) }
    #expect(future.result == nil)
    #expect(observed.all.isEmpty)
    resolver.complete(.success(1))
    #expect(observed.all == [.success(1)])
  }

  @Test("19.3 resolve, reject and complete each give every observer the same result")
  func resolveRejectAndCompleteSettleTheFuture() {
    let cases: [(Future<Int, TestError>.Resolver) -> Void] = [
      { $0.resolve(7) }, { $0.reject(.second) }, { $0.complete(.failure(.code(2))) },
    ]
    let expected: [Result<Int, TestError>] = [.success(7), .failure(.second), .failure(.code(2))]
    for (complete, result) in zip(cases, expected) {
      let (future, resolver) = Future<Int, TestError>.makePending()
      let observed = Recorder<Result<Int, TestError>>()
      future.observe { observed.append($0) }
      future.observe { observed.append($0) }
      complete(resolver)
      #expect(observed.all == [result, result])
      #expect(future.result == result)
    }
  }

  @Test("19.3 the resolver runs the observers and derived futures before it returns")
  func resolverRunsObserversBeforeReturning() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let doubled = future.map { $0 * 2 }
    let observed = Counter()
    future.observe { _ in observed.increment() }
    resolver.resolve(21)
    #expect(observed.current == 1)
    #expect(doubled.result == .success(42))
  }

  @Test("9.6 the resolver can complete the future from another thread, where an await picks it up")
  func resolverCompletesFromAnotherThread() async {
    let (future, resolver) = Future<String, TestError>.makePending()
    DispatchQueue.global().async { resolver.resolve("done") }
    #expect(await value(of: future) == .success("done"))
  }

  #if DEBUG
    @Test("19.2 a second completion is ignored and reported with the file and line given to makePending")
    func secondCompletionIsReportedWithTheGivenSite() {
      let (future, resolver) = Future<Int, TestError>.makePending(file: "App/Photos.swift", line: 9)
      resolver.reject(.first)
      resolver.resolve(1)
      #expect(future.result == .failure(.first))
      #expect(
        DiagnosticsCollector.reports(at: "App/Photos.swift:9")
          == [PromiseDiagnostic(kind: .futureCompletedMoreThanOnce, site: "App/Photos.swift:9")])
    }

    @Test("19.10 a result arriving after the future was cancelled is ignored without a diagnostic")
    func resultAfterCancelIsIgnoredSilently() {
      let (future, resolver) = Future<Int, LookupError>.makePending(file: "App/Cancel.swift", line: 3)
      future.cancel()
      resolver.resolve(1)
      #expect(future.result == .failure(.cancelled))
      #expect(DiagnosticsCollector.reports(at: "App/Cancel.swift:3").isEmpty)
    }
  #endif
}
