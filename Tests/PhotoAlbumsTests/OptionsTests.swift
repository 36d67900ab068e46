import ExampleSupport
import Foundation
import Testing

@testable import PhotoAlbums

@Suite("photo-albums options")
struct OptionsTests {
  func options(_ arguments: [String]) throws -> Options {
    guard case .merge(let options) = try Options.parse(arguments) else {
      throw UsageError("expected options, got help")
    }
    return options
  }

  @Test("no arguments: all three versions, recorded answers, no latency, quiet")
  func defaults() throws {
    let options = try options([])
    #expect(options.versions == [.callbacks, .chain, .zip])
    #expect(options.baseURL == nil && options.latency == .zero && !options.verbose)
  }

  @Test("each option, as a separate value and after =")
  func eachOption() throws {
    let parsed = try options(["--only", "zip", "--latency=250", "--timeout", "2.5", "--verbose"])
    #expect(parsed.versions == [.zip])
    #expect(parsed.latency == .milliseconds(250))
    #expect(parsed.timeout == 2.5 && parsed.verbose)
    #expect(try options(["--live"]).baseURL == Options.apiURL)
    #expect(try options(["--base-url=http://127.0.0.1:8080"]).baseURL?.absoluteString == "http://127.0.0.1:8080")
    #expect(try Options.parse(["--only", "chain", "--help"]) == .help)
  }

  @Test(
    "bad input gets a usage error that names it",
    arguments: [
      (["--only", "threads"], "--only wants callbacks, chain or zip, not 'threads'"),
      (["--latency", "-1"], "--latency wants milliseconds between 0 and 10000, not '-1'"),
      (["--timeout", "0"], "--timeout wants seconds between 0 and 3600, not '0'"),
      (["--base-url", "ftp://example.org"], "--base-url wants an http or https URL, not 'ftp://example.org'"),
      (["--only"], "--only needs a value"),
      (["--verbose=yes"], "--verbose takes no value"),
      (["--colour"], "unknown argument '--colour'"),
    ])
  func badInputIsNamed(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try Options.parse(arguments) }
  }
}
