import Foundation

/// Where an example tool writes: a line to standard output, a line to standard error.
///
/// Both examples take one, so that their tests can capture what they print:
///
/// ```swift
/// let console = Console.standard
/// console.write("Jack Johnson")      // standard output
/// console.report("error: no artist")  // standard error
/// ```
public struct Console: Sendable {
  /// Writes one line of output.
  public var write: @Sendable (String) -> Void
  /// Writes one line of diagnostics.
  public var report: @Sendable (String) -> Void

  /// A console that writes through these two functions.
  public init(write: @escaping @Sendable (String) -> Void, report: @escaping @Sendable (String) -> Void) {
    self.write = write
    self.report = report
  }

  /// The process's standard output and standard error.
  public static let standard = Console(
    write: { print($0) },
    report: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
}

/// A console that keeps every line, for tests.
///
/// ```swift
/// let captured = CapturedConsole()
/// captured.console.write("Jack Johnson")
/// captured.output  // ["Jack Johnson"]
/// ```
public final class CapturedConsole: @unchecked Sendable {
  // An `NSLock`, not a `Mutex`: tests run under the thread sanitizer, which cannot see the order of a contended
  // `Mutex` on Linux (it waits in uninstrumented futex code). The lines are touched only under `lock`.
  private let lock = NSLock()
  private var lines: (output: [String], diagnostics: [String]) = ([], [])

  /// An empty capture.
  public init() {}

  /// The console to hand to the tool.
  public var console: Console {
    Console(
      write: { line in self.lock.withLock { self.lines.output.append(line) } },
      report: { line in self.lock.withLock { self.lines.diagnostics.append(line) } })
  }

  /// The lines written to standard output.
  public var output: [String] { lock.withLock { lines.output } }
  /// The lines written to standard error.
  public var diagnostics: [String] { lock.withLock { lines.diagnostics } }
}
