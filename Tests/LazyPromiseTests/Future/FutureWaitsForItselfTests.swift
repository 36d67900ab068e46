import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Issue 21, item 3: a stage whose callback returns the very future the stage completes (Promises/A+ 2.3.1, which
/// PromiseKit rejects as `returnedSelf`) would wait for itself forever. It is cancelled where its error type can
/// say "cancelled", and otherwise stays pending; either way a debug build reports it.
@Suite("Future — a stage's callback returning the future it completes", .serialized)
struct FutureWaitsForItselfTests {
  /// The future a stage's callback returns, set once the stage has made it.
  final class Later<E: Error>: Sendable {
    private let future = Mutex<Future<Int, E>?>(nil)

    func set(_ newValue: Future<Int, E>) { future.withLock { $0 = newValue } }

    var value: Future<Int, E> {
      guard let value = future.withLock({ $0 }) else { fatalError("the test did not set the future") }
      return value
    }
  }

  /// How many `futureWaitsForItself` diagnostics have been reported so far.
  static func reports() -> Int {
    DiagnosticsCollector.reports(at: PromiseDiagnostic.unknownSite).count { $0.kind == .futureWaitsForItself }
  }

  /// A future made by `chain` from a pending future, whose callback returns that very future; then the pending
  /// future is completed with `result`.
  static func waitingForItself<E: Error>(
    completing result: Result<Int, E>,
    _ chain: (Future<Int, E>, Later<E>) -> Future<Int, E>
  ) -> Future<Int, E> {
    let (source, resolver) = Future<Int, E>.makePending()
    let later = Later<E>()
    let derived = chain(source, later)
    later.set(derived)
    resolver.complete(result)
    return derived
  }

  @Test("19.14 a flatMap callback returning its own future cancels it where the error type can say so, and reports it")
  func flatMapCancelsWhereTheErrorCanSaySo() {
    DiagnosticsCollector.install()
    let before = Self.reports()
    let observed = Recorder<Bool>()
    let derived = Self.waitingForItself(completing: Result<Int, CancellationError>.success(1)) { source, later in
      source.flatMap { _ in later.value }
    }
    derived.observe { result in observed.append((try? result.get()) == nil) }
    #expect(derived.isCancelled)
    #expect(observed.all == [true], "its observers receive the failure once")
    #if DEBUG
      #expect(Self.reports() == before + 1)
    #else
      #expect(Self.reports() == before, "diagnostics are reported in debug builds only")
    #endif
  }

  @Test("19.14 a then callback returning its own future, with any Error, fails it with CancellationError")
  func thenFailsWithCancellationError() {
    let derived = Self.waitingForItself(completing: Result<Int, any Error>.success(1)) { source, later in
      source.then { _ in later.value }
    }
    #expect(derived.isCancelled)
    guard case .failure(let error)? = derived.result else {
      Issue.record("the future should have failed, not \(String(describing: derived.result))")
      return
    }
    #expect(error is CancellationError)
  }

  @Test("19.14 a flatMapError callback returning its own future cancels it too")
  func flatMapErrorCancels() {
    let derived = Self.waitingForItself(completing: Result<Int, CancellationError>.failure(CancellationError())) {
      source, later in
      source.flatMapError { _ in later.value }
    }
    #expect(derived.isCancelled)
  }

  @Test("19.14 where the error type cannot say cancelled, the future stays pending, and it is reported")
  func staysPendingWhereTheErrorCannotSaySo() {
    DiagnosticsCollector.install()
    let before = Self.reports()
    let derived = Self.waitingForItself(completing: Result<Int, TestError>.success(1)) { source, later in
      source.flatMap { _ in later.value }
    }
    #expect(derived.result == nil)
    #expect(!derived.isCancelled)
    #if DEBUG
      #expect(Self.reports() == before + 1)
    #else
      #expect(Self.reports() == before, "diagnostics are reported in debug builds only")
    #endif
  }

  @Test("19.14 the futureWaitsForItself diagnostic says what happened")
  func diagnosticDescription() {
    let diagnostic = PromiseDiagnostic(kind: .futureWaitsForItself, site: PromiseDiagnostic.unknownSite)
    #expect(diagnostic.description.contains("returned the future the stage completes"))
  }
}
