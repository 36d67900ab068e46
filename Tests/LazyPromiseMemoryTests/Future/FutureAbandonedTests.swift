import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19.15: a pending future whose resolver is released without completing it is reported in debug builds.
@Suite("19.15 A pending future left without a way to complete")
struct FutureAbandonedTests {
  init() { DiagnosticsCollector.install() }

  #if DEBUG
    @Test("19.15 makePending() with the resolver dropped is reported, with the future's site")
    func droppedResolverIsReported() {
      let future: Future<Int, TestError> = {
        let (future, _) = Future<Int, TestError>.makePending(file: "App/Abandoned.swift", line: 1)
        return future
      }()
      #expect(future.result == nil)
      #expect(
        DiagnosticsCollector.reports(at: "App/Abandoned.swift:1")
          == [PromiseDiagnostic(kind: .pendingFutureAbandoned, site: "App/Abandoned.swift:1")])
    }

    @Test("19.15 Future { _ in } that drops its completion is reported")
    func droppedCompletionIsReported() {
      let future = Future<Int, TestError>(file: "App/Abandoned.swift", line: 2) { _ in }
      #expect(future.result == nil)
      #expect(DiagnosticsCollector.reports(at: "App/Abandoned.swift:2").map(\.kind) == [.pendingFutureAbandoned])
    }

    @Test("19.15 one report however many copies of the resolver there were")
    func copiesReportOnce() {
      do {
        let (_, resolver) = Future<Int, TestError>.makePending(file: "App/Abandoned.swift", line: 3)
        let copies = [resolver, resolver, resolver]
        _ = copies.count
      }
      #expect(DiagnosticsCollector.reports(at: "App/Abandoned.swift:3").map(\.kind) == [.pendingFutureAbandoned])
    }
  #endif

  @Test("19.15 a completed, a cancelled and a still-held future are not reported")
  func completedCancelledAndHeldAreNot() {
    do {
      let (_, resolver) = Future<Int, TestError>.makePending(file: "App/Kept.swift", line: 1)
      resolver.resolve(1)
    }
    _ = Future<Int, TestError>(file: "App/Kept.swift", line: 2) { completion in completion(.success(2)) }
    do {
      let (future, resolver) = Future<Int, CancellationError>.makePending(file: "App/Kept.swift", line: 3)
      future.cancel()
      withExtendedLifetime(resolver) {}  // `let (future, _)` would release it, unused, before the cancel
    }
    let (held, resolver) = Future<Int, TestError>.makePending(file: "App/Kept.swift", line: 4)
    let queue = DispatchQueue(label: "FutureAbandonedTests")
    queue.async { resolver.resolve(4) }
    queue.sync {}
    #expect(held.result == .success(4))
    for line in 1...4 { #expect(DiagnosticsCollector.reports(at: "App/Kept.swift:\(line)").isEmpty) }
  }
}
