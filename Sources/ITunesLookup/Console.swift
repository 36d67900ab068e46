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

  /// Stage 5, print: writes the artist's name, one line, then one indented line per album when the lookup asked
  /// for albums (`--entity album`).
  func printName(_ artist: Artist) {
    write(artist.name)
    for album in artist.albums {
      write("  \(album.name)" + (album.trackCount.map { " (\($0) tracks)" } ?? ""))
    }
  }

  /// Writes `error: <what went wrong>`, one line, to the diagnostics.
  func printError(_ error: LookupError) {
    report("error: \(error)")
  }
}
