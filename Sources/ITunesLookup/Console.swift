import ExampleSupport

/// Stage 5, print, and the error line: what `itunes-lookup` writes, on the console both examples share
/// (ExampleSupport's `Console`).
extension Console {
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
