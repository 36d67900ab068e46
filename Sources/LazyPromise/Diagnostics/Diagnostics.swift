import Synchronization

/// A programmer error that LazyPromise detected and survived: it is reported, never delivered.
///
/// Reports are made in debug builds only. Each carries the file and line where the offending promise was made.
///
/// ```swift
/// PromiseDiagnostics.setHandler { diagnostic in
///   print("LazyPromise:", diagnostic)
/// }
/// ```
public struct PromiseDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// A task called its completion handler a second time; the second result was ignored.
    case completedMoreThanOnce
    /// A task released its completion handler without calling it; the run can never deliver.
    case completionReleasedWithoutBeingCalled
    /// An eager `Future` was completed a second time; the second result was ignored.
    case futureCompletedMoreThanOnce
    /// A `Future` stage's callback (`flatMap`, `then`, `flatMapError`) returned the very future the stage completes
    /// (Promises/A+ 2.3.1), which would wait for itself forever. It was cancelled instead where its error type can
    /// say "cancelled" (``CancellationRepresentable``, or `any Error`); otherwise it stays pending. Where that
    /// future was made is not known: `site` is ``PromiseDiagnostic/unknownSite``.
    case futureWaitsForItself
    /// A `then` stage's function returns a promise, a future or a `Result` whose error type is not the chain's, so
    /// it was taken as a plain value and its work never runs. Convert the error with `mapError` (contract 10.6).
    /// Reported when the stage is made.
    case thenDeliversAnotherErrorType
    /// A pending `Future`'s resolver (or the completion a `Future { completion in … }` task was given) was released
    /// without completing it, and the future was not cancelled: it can never complete. Reported when the last copy
    /// of the resolver goes.
    case pendingFutureAbandoned
  }

  /// What went wrong.
  public let kind: Kind
  /// The file and line (`"Module/File.swift:12"`) where the promise or future was made, or
  /// ``PromiseDiagnostic/unknownSite``.
  public let site: String

  /// The `site` of a diagnostic whose promise or future was made at a place the library does not know.
  ///
  /// ```swift
  /// PromiseDiagnostics.setHandler { diagnostic in
  ///   if diagnostic.site == PromiseDiagnostic.unknownSite { print("LazyPromise:", diagnostic.kind) }
  /// }
  /// ```
  public static let unknownSite = "an unknown location"

  /// Creates a diagnostic; the library makes these, tests may compare against them.
  ///
  /// ```swift
  /// let expected = PromiseDiagnostic(kind: .completedMoreThanOnce, site: "App/Fetch.swift:12")
  /// ```
  public init(kind: Kind, site: String) {
    self.kind = kind
    self.site = site
  }

  /// A sentence naming the error and where the promise was made.
  public var description: String {
    switch kind {
    case .completedMoreThanOnce:
      return "the completion handler of the promise made at \(site) was called more than once; "
        + "the extra result was ignored"
    case .completionReleasedWithoutBeingCalled:
      return "the completion handler of the promise made at \(site) was released without being called; "
        + "its run can never deliver"
    case .futureCompletedMoreThanOnce:
      return "the future made at \(site) was completed more than once; the extra result was ignored"
    case .futureWaitsForItself:
      return "a future stage's callback returned the future the stage completes, which would wait for itself "
        + "forever; it was cancelled if its error type can say so, and otherwise stays pending"
    case .thenDeliversAnotherErrorType:
      return "the then stage made at \(site) returns a promise, future or Result of another error type, which is "
        + "delivered as a plain value and never runs; convert its error with mapError { ... }"
    case .pendingFutureAbandoned:
      return "the resolver of the future made at \(site) was released without completing it; the future can "
        + "never complete"
    }
  }
}

/// Where debug-build diagnostics go (standard error by default).
///
/// ```swift
/// PromiseDiagnostics.setHandler { diagnostic in logger.warning("\(diagnostic)") }
/// ```
public enum PromiseDiagnostics {
  // The closure is kept inside a struct: a closure stored directly in a generic `Mutex` is re-abstracted on every
  // `withLock` that copies it out, and each copy wraps it in two more thunks (after 100,000 reports, a call 200,000
  // thunks deep overflows the stack).
  private struct Handler {
    let call: @Sendable (PromiseDiagnostic) -> Void
  }
  private static let handler = _Lock<Handler?>(nil)

  /// Replaces the handler that receives diagnostics; `nil` restores the default (standard error).
  ///
  /// - Parameter newHandler: Called on the thread that detected the error, with no lock held.
  public static func setHandler(_ newHandler: (@Sendable (PromiseDiagnostic) -> Void)?) {
    handler.withLock { $0 = newHandler.map(Handler.init) }
  }

  @usableFromInline
  static func report(_ kind: PromiseDiagnostic.Kind, site: _Site) {
    report(PromiseDiagnostic(kind: kind, site: site.description))
  }

  static func report(_ diagnostic: PromiseDiagnostic) {
    if let current = handler.withLock({ $0 }) {
      current.call(diagnostic)
    } else {
      writeToStandardError("LazyPromise: \(diagnostic)\n")
    }
  }
}
