import ExampleSupport
import Foundation
import Testing

/// Options with the shared settings and one of their own, as each example's are.
private struct Settings: ToolOptions, Equatable {
  var baseURL: URL? = nil
  var timeout: TimeInterval = 10
  var verbose = false
  var name = "default"
}

private let api = URL(string: "https://api.example.com")!

/// Reads `line` (split on spaces) with `--name` as the one option of the tool's own.
private func read(_ line: String) throws(UsageError) -> Settings? {
  var settings = Settings()
  let arguments = line.split(separator: " ").map(String.init)
  let proceed = try readCommandLine(arguments, into: &settings, apiURL: api) {
    (settings, argument) throws(UsageError) -> Bool in
    guard argument.name == "--name" else { return false }
    settings.name = try argument.value()
    return true
  }
  return proceed ? settings : nil
}

@Suite("readCommandLine: the options both examples read the same way")
struct CommandLineTests {
  @Test func nothingGivenKeepsTheDefaults() throws {
    #expect(try read("") == Settings())
  }

  @Test func sharedOptionsAndTheToolsOwnAreRead() throws {
    var expected = Settings(baseURL: URL(string: "http://127.0.0.1:8080"), timeout: 2.5, verbose: true)
    expected.name = "x"
    #expect(try read("--base-url http://127.0.0.1:8080 --timeout=2.5 --verbose --name x") == expected)
  }

  @Test func liveAsksTheToolsAPIUnlessABaseURLIsGiven() throws {
    #expect(try read("--live")?.baseURL == api)
    #expect(try read("--live --base-url http://localhost:1")?.baseURL == URL(string: "http://localhost:1"))
  }

  @Test func helpStopsReading() throws {
    #expect(try read("--verbose --help --nonsense") == nil)
    #expect(try read("-h") == nil)
  }

  @Test(arguments: [
    ("--colour", "unknown argument '--colour'"),
    ("--name", "--name needs a value"),
    ("--name --verbose", "--name needs a value"),
    ("--verbose=yes", "--verbose takes no value"),
    ("--live=1", "--live takes no value"),
    ("--timeout 0", "--timeout wants seconds between 0 and 3600, not '0'"),
    ("--timeout soon", "--timeout wants seconds between 0 and 3600, not 'soon'"),
    ("--base-url ftp://host", "--base-url wants an http or https URL, not 'ftp://host'"),
  ])
  func badInputGetsAUsageErrorNamingIt(line: String, message: String) {
    #expect(throws: UsageError(message)) { try read(line) }
  }
}

@Suite("Console and CapturedConsole")
struct ConsoleTests {
  @Test func aCapturedConsoleKeepsOutputAndDiagnosticsApart() {
    let captured = CapturedConsole()
    captured.console.write("out")
    captured.console.report("err")
    captured.console.write("more")
    #expect(captured.output == ["out", "more"])
    #expect(captured.diagnostics == ["err"])
  }
}
