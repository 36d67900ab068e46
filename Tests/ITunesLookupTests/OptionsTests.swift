import ExampleSupport
import Foundation
import Testing

@testable import ITunesLookup

@Suite("Command line")
struct OptionsTests {
  func parse(_ arguments: String) throws(UsageError) -> Options.Command {
    try Options.parse(arguments.split(separator: " ").map(String.init))
  }

  @Test("no arguments look up 909253 in Rock from the recordings")
  func defaults() throws {
    #expect(try parse("") == .lookup(Options()))
    #expect(Options().query == LookupQuery(id: "909253"))
    #expect(Options().genre == "Rock")
    #expect(Options().baseURL == nil)
  }

  @Test("each option sets its setting, with its value after a space or an equals sign")
  func optionsSetSettings() throws {
    var expected = Options()
    expected.query = LookupQuery(id: "159260351", entity: "album")
    expected.genre = "Pop"
    expected.baseURL = URL(string: "http://127.0.0.1:8080")!
    expected.timeout = 2.5
    expected.verbose = true
    #expect(
      try parse("--id 159260351 --entity=album --genre Pop --base-url http://127.0.0.1:8080 --timeout=2.5 --verbose")
        == .lookup(expected))
  }

  @Test("--live asks the real API unless --base-url names another")
  func liveUsesTheRealAPI() throws {
    var live = Options()
    live.baseURL = Options.apiURL
    #expect(try parse("--live") == .lookup(live))
    var local = Options()
    local.baseURL = URL(string: "http://127.0.0.1:1")!
    #expect(try parse("--live --base-url http://127.0.0.1:1") == .lookup(local))
  }

  @Test("--help wins")
  func helpWins() throws {
    #expect(try parse("--id 1 --help") == .help)
    #expect(try parse("-h") == .help)
  }

  @Test(
    "bad command lines fail with a usage error that says why",
    arguments: [
      ("--colour", "unknown argument '--colour'"),
      ("909253", "unknown argument '909253'"),
      ("--id", "--id needs a value"),
      ("--id --verbose", "--id needs a value"),
      ("--id abc", "--id wants a numeric artist id, not 'abc'"),
      ("--id=", "--id wants a numeric artist id, not ''"),
      ("--entity a/b", "--entity wants a name like album, not 'a/b'"),
      ("--genre=", "--genre wants a genre name"),
      ("--base-url ftp://x", "--base-url wants an http or https URL, not 'ftp://x'"),
      ("--timeout 0", "--timeout wants seconds between 0 and 3600, not '0'"),
      ("--timeout soon", "--timeout wants seconds between 0 and 3600, not 'soon'"),
      ("--live=yes", "--live takes no value"),
    ])
  func badCommandLines(_ arguments: String, _ message: String) {
    #expect(throws: UsageError(message)) { try parse(arguments) }
  }
}
