import ExampleSupport
import Foundation
import LazyPromiseFoundation
import Testing

@testable import ITunesLookup

@Suite("Stage 5 — print")
struct ConsoleTests {
  @Test("printName writes the artist's name as one line of output")
  func printNameWritesTheName() {
    let captured = CapturedConsole()
    captured.console.printName(FilterTests.artist("Jack Johnson", genre: "Rock"))
    #expect(captured.output == ["Jack Johnson"])
    #expect(captured.diagnostics.isEmpty)
  }

  @Test("printError writes one line naming the typed error")
  func printErrorWritesOneLine() {
    let captured = CapturedConsole()
    captured.console.printError(.noGenreMatch(genre: "Rock", id: "123", found: ["Pop"]))
    captured.console.printError(.http(.badStatus(404, body: Data())))
    #expect(
      captured.diagnostics == [
        "error: no Rock result for artist id 123 (found: Pop)",
        "error: the lookup request failed: the server answered 404 Not Found",
      ])
    #expect(captured.output.isEmpty)
  }
}
