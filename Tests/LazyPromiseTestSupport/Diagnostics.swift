import LazyPromise

/// Collects the debug-build diagnostics of every test; each test looks only at the sites it made.
///
/// ```swift
/// DiagnosticsCollector.install()
/// let promise = Promise<Int, TestError> { completion in completion(.success(1)); completion(.success(2)) }
/// let madeAt = site(#fileID, #line - 1)
/// promise.run { _ in }
/// #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.completedMoreThanOnce])
/// ```
public enum DiagnosticsCollector {
  private static let reports = Recorder<PromiseDiagnostic>()
  private static let installed: Bool = {
    PromiseDiagnostics.setHandler { reports.append($0) }
    return true
  }()

  /// Routes every diagnostic to the collector from now on (once per process; later calls do nothing).
  public static func install() { _ = installed }

  /// The diagnostics reported so far for promises or futures made at `site`.
  public static func reports(at site: String) -> [PromiseDiagnostic] {
    reports.all.filter { $0.site == site }
  }
}

/// The `#fileID:#line` string diagnostics use for a promise made at that line.
///
/// ```swift
/// let madeAt = site()  // "LazyPromiseTests/SomeTests.swift:12"
/// ```
public func site(_ file: StaticString = #fileID, _ line: UInt = #line) -> String { "\(file):\(line)" }
