import ExampleSupport
import Foundation
import LazyPromise
import LoopbackHTTPServer
import Testing

@testable import ITunesLookup

/// The tool as `swift run itunes-lookup` runs it: arguments in, lines and an exit status out.
@Suite("itunes-lookup")
struct ToolTests {
  func run(
    _ arguments: [String], clock: some PromiseScheduler = DispatchQueue.global()
  ) async -> (status: Int32, output: [String], diagnostics: [String]) {
    let captured = CapturedConsole()
    let status = await runTool(arguments, console: captured.console, session: testSession, clock: clock)
    return (status, captured.output, captured.diagnostics)
  }

  @Test("with no arguments it prints Jack Johnson from the recordings and exits 0")
  func defaultRunPrintsJackJohnson() async {
    let run = await run([])
    #expect(run.status == 0)
    #expect(run.output == ["Jack Johnson"])
    #expect(run.diagnostics.isEmpty)
  }

  @Test("--entity album prints the artist's name, then each album the lookup found, and exits 0")
  func entityAlbumListsTheAlbums() async {
    let run = await run(["--entity", "album"])
    #expect(run.status == 0)
    #expect(
      run.output == [
        "Jack Johnson", "  In Between Dreams (14 tracks)", "  On and On (16 tracks)",
        "  Brushfire Fairytales (13 tracks)",
      ])
    #expect(run.diagnostics.isEmpty)
  }

  @Test("a failed lookup prints one error line and exits 1")
  func failedLookupPrintsOneLine() async {
    let run = await run(["--id", "159260351"])
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.diagnostics == ["error: no Rock result for artist id 159260351 (found: Pop)"])
  }

  @Test("an unknown flag prints the error and the synopsis and exits 2")
  func unknownFlagExits2() async {
    let run = await run(["--colour"])
    #expect(run.status == 2)
    #expect(run.diagnostics == ["error: unknown argument '--colour'", Options.synopsis])
    #expect(run.output.isEmpty)
  }

  @Test("--help prints the usage and exits 0")
  func helpPrintsUsage() async {
    let run = await run(["--help"])
    #expect(run.status == 0)
    #expect(run.output == [Options.usage])
  }

  @Test("--verbose logs the source and each stage, in order")
  func verboseLogsEachStage() async {
    let run = await run(["--verbose"])
    #expect(run.status == 0)
    #expect(run.output == ["Jack Johnson"])
    #expect(
      run.diagnostics.map { $0.prefix(while: { $0 != " " }) } == ["source", "then", "then", "then", "then"])
    #expect(run.diagnostics.dropFirst().allSatisfy { $0.contains(" ITunesLookup/Tool.swift:") })
    #expect(run.diagnostics.dropFirst().allSatisfy { $0.hasSuffix(" ms  ok") })
  }

  @Test("--base-url asks that server, and --genre picks the genre")
  func baseURLAsksTheServer() async throws {
    let answer = try recorded(LookupQuery(id: "159260351"))
    try await LoopbackHTTPServer.serving({ _ in .respond(status: 200, body: Array(answer)) }) { server in
      let run = await run(["--base-url", server.baseURL.absoluteString, "--id", "159260351", "--genre", "pop"])
      #expect(run.status == 0)
      #expect(run.output == ["Taylor Swift"])
    }
  }

  @Test("a server that stalls past --timeout prints the timeout and exits 1", .timeLimit(.minutes(1)))
  func stallingServerTimesOut() async throws {
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      let run = await run(["--base-url", server.baseURL.absoluteString, "--timeout", "0.5"])
      #expect(run.status == 1)
      #expect(run.diagnostics == ["error: no answer within 0.5 seconds (--timeout)"])
    }
  }

  @Test("--timeout cancels the request when the time passes and exits 1", .timeLimit(.minutes(1)))
  func timeoutCancelsTheRequest() async throws {
    let clock = VirtualScheduler()
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      let tool = Task { await run(["--base-url", server.baseURL.absoluteString, "--timeout", "20"], clock: clock) }
      _ = await events.nextRequest()
      clock.advance(by: .seconds(20))
      let outcome = await tool.value
      #expect(outcome.status == 1)
      #expect(outcome.diagnostics == ["error: no answer within 20 seconds (--timeout)"])
      #expect(await events.nextClose(), "the request was cancelled")
    }
  }

  @Test("cancelling the tool, as Ctrl-C does, cancels the request and exits 130", .timeLimit(.minutes(1)))
  func cancellingTheToolCancelsTheRequest() async throws {
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      let tool = Task { await run(["--base-url", server.baseURL.absoluteString]) }
      _ = await events.nextRequest()
      tool.cancel()
      let outcome = await tool.value
      #expect(outcome.status == 130)
      #expect(outcome.output.isEmpty)
      #expect(outcome.diagnostics == ["error: cancelled"])
      #expect(await events.nextClose(), "the request was cancelled")
    }
  }

  @Test("a cancelled tool starts no request")
  func toolCancelledBeforeStartingSendsNothing() async throws {
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      let tool = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return await run(["--base-url", server.baseURL.absoluteString])
      }
      #expect(await tool.value.status == 130)
    }
  }
}
