import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Diagnostics.swift`: `PromiseDiagnostic` (what went wrong, and where) and `PromiseDiagnostics` (where reports go).
///
/// The handler is process-wide and every test target installs ``DiagnosticsCollector`` as it, so these tests read
/// reports through the collector rather than replacing the handler under tests that run in parallel.
@Suite("Diagnostics — what a report says and where it goes")
struct DiagnosticsTests {
  init() { DiagnosticsCollector.install() }

  @Test("a diagnostic keeps its kind and site, and equals another only when both match")
  func diagnosticKeepsKindAndSite() {
    let diagnostic = PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Fetch.swift:12")
    #expect(diagnostic.kind == .completedMoreThanOnce)
    #expect(diagnostic.site == "App/Fetch.swift:12")
    #expect(diagnostic == PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Fetch.swift:12"))
    #expect(diagnostic != PromiseDiagnostic(kind: .futureCompletedMoreThanOnce, site: "App/Fetch.swift:12"))
    #expect(diagnostic != PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Fetch.swift:13"))
  }

  @Test(
    "each kind's description is a sentence naming the error and the site",
    arguments: [
      (
        PromiseDiagnostic.Kind.completedMoreThanOnce,
        "the completion handler of the promise made at App/A.swift:1 was called more than once; "
          + "the extra result was ignored"
      ),
      (
        .completionReleasedWithoutBeingCalled,
        "the completion handler of the promise made at App/A.swift:1 was released without being called; "
          + "its run can never deliver"
      ),
      (
        .futureCompletedMoreThanOnce,
        "the future made at App/A.swift:1 was completed more than once; the extra result was ignored"
      ),
      (
        .thenDeliversAnotherErrorType,
        "the then stage made at App/A.swift:1 returns a promise, future or Result of another error type, which is "
          + "delivered as a plain value and never runs; convert its error with mapError { ... }"
      ),
      (
        .pendingFutureAbandoned,
        "the resolver of the future made at App/A.swift:1 was released without completing it; the future can "
          + "never complete"
      ),
    ])
  func descriptionNamesTheErrorAndTheSite(kind: PromiseDiagnostic.Kind, sentence: String) {
    let diagnostic = PromiseDiagnostic(kind: kind, site: "App/A.swift:1")
    #expect(diagnostic.description == sentence)
    #expect("\(diagnostic)" == sentence)
  }

  #if DEBUG
    @Test("4.2 a misuse on another thread reaches the handler with the site of the promise")
    func misuseOnAnotherThreadReachesTheHandler() async {
      let queue = DispatchQueue(label: "detecting")
      let promise = Promise<Int, TestError>(file: "App/Twice.swift", line: 5) { completion in
        queue.async {
          completion(.success(1))
          completion(.success(2))
        }
      }
      #expect(await promise.result == .success(1))
      // The report is made inside the second `completion` call, before it returns on `queue`.
      queue.sync {}
      #expect(
        DiagnosticsCollector.reports(at: "App/Twice.swift:5")
          == [PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Twice.swift:5")])
    }

    @Test("4.2, 19.2 each misuse is reported once per occurrence, with the site of the promise or future it concerns")
    func eachMisuseIsReportedOncePerOccurrence() {
      let promise = Promise<Int, TestError>(file: "App/Many.swift", line: 1) { completion in
        for value in 0..<3 { completion(.success(value)) }
      }
      promise.run { _ in }
      promise.run { _ in }
      let (_, resolver) = Future<Int, TestError>.makePending(file: "App/Many.swift", line: 2)
      resolver.resolve(1)
      resolver.resolve(2)
      #expect(DiagnosticsCollector.reports(at: "App/Many.swift:1").count == 4)
      #expect(DiagnosticsCollector.reports(at: "App/Many.swift:2").map(\.kind) == [.futureCompletedMoreThanOnce])
    }
  #endif
}
