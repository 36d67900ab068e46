import Foundation

/// Where the tool writes: a line to standard output, a line to standard error.
struct Console: Sendable {
  /// Writes one line of output.
  var write: @Sendable (String) -> Void
  /// Writes one line of diagnostics.
  var report: @Sendable (String) -> Void

  /// The process's standard output and standard error.
  static let standard = Console(
    write: { print($0) },
    report: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
}
