import ExampleSupport
import Foundation
import LoopbackHTTPServer
import Testing

@testable import PhotoAlbums

/// The tool as `swift run photo-albums` runs it: arguments in, lines and an exit status out.
@Suite("photo-albums")
struct ToolTests {
  func run(_ arguments: [String]) async -> (status: Int32, output: [String], diagnostics: [String]) {
    let captured = CapturedConsole()
    let status = await runTool(arguments, console: captured.console, session: testSession)
    return (status, captured.output, captured.diagnostics)
  }

  @Test("with no arguments it runs the three versions on the recordings and prints the summary")
  func defaultRunPrintsTheSummary() async {
    let run = await run([])
    #expect(run.status == 0)
    #expect(run.output.count == 11)
    #expect(run.output.first == "10 users, 100 albums, 5000 photos")
    #expect(run.output[1] == "Leanne Graham (Bret): 10 albums, 500 photos")
    #expect(run.diagnostics.isEmpty)
  }

  @Test("--verbose logs the source and how long each version took")
  func verboseLogsEachVersion() async {
    let run = await run(["--verbose", "--latency", "1"])
    #expect(run.status == 0)
    #expect(run.diagnostics.map { $0.prefix(while: { $0 != " " }) } == ["source", "callbacks", "chain", "zip"])
    #expect(run.diagnostics.first == "source     recorded answers (latency 1 ms)")
    #expect(run.diagnostics.dropFirst().allSatisfy { $0.hasSuffix(" ms  ok") })
  }

  @Test("--only runs one version")
  func onlyRunsOneVersion() async {
    let run = await run(["--only", "chain", "--verbose"])
    #expect(run.status == 0)
    #expect(run.diagnostics.map { $0.prefix(while: { $0 != " " }) } == ["source", "chain"])
    #expect(run.output.first == "10 users, 100 albums, 5000 photos")
  }

  @Test("--base-url asks that server")
  func baseURLAsksTheServer() async throws {
    try await LoopbackHTTPServer.serving(recordingsServer()) { server in
      let run = await run(["--base-url", server.baseURL.absoluteString, "--verbose"])
      #expect(run.status == 0)
      #expect(run.output.first == "10 users, 100 albums, 5000 photos")
      #expect(run.diagnostics.first == "source     GET \(server.baseURL.absoluteString)/{users,albums,photos}")
    }
  }

  @Test("a failing server prints one error line and exits 1")
  func failingServerExits1() async throws {
    try await LoopbackHTTPServer.serving({ _ in .respond(status: 500, "down") }) { server in
      let run = await run(["--base-url", server.baseURL.absoluteString, "--only", "zip"])
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(run.diagnostics.count == 1)
      #expect(run.diagnostics.first?.hasPrefix("error: the /") == true)
      #expect(
        run.diagnostics.first?.hasSuffix("request failed: the server answered 500 Internal Server Error: \"down\"")
          == true)
    }
  }

  @Test("an unknown flag prints the error and the synopsis and exits 2")
  func unknownFlagExits2() async {
    let run = await run(["--colour"])
    #expect(run.status == 2)
    #expect(run.diagnostics == ["error: unknown argument '--colour'", Options.synopsis])
  }

  @Test("--help prints the usage and exits 0")
  func helpPrintsUsage() async {
    let run = await run(["--help"])
    #expect(run.status == 0)
    #expect(run.output == [Options.usage])
  }
}
