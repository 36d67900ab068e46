import ExampleSupport
import Foundation
import LazyPromise
import LazyPromiseFoundation
import LoopbackHTTPServer
import Testing

@testable import ITunesLookup

/// The whole pipeline, against a real HTTP server on loopback.
@Suite("Pipeline against a loopback server")
struct PipelineTests {
  /// One way the server can answer, and what the pipeline must deliver.
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var id = "909253"
    var reply: @Sendable () throws -> LoopbackHTTPServer.Reply
    var expected: Result<Artist, LookupError>
    /// How long the pipeline waits for the server: short only where the case is about the timeout, so that a busy
    /// machine (CI's parallel tests, other builds) does not turn an answer into `timedOut`.
    var timeout = 10.0
  }

  static func answer(_ query: LookupQuery) -> @Sendable () throws -> LoopbackHTTPServer.Reply {
    { .respond(status: 200, body: Array(try recorded(query))) }
  }

  static let cases: [Case] = [
    Case(
      testDescription: "200 with the lookup answer prints the Rock artist",
      reply: answer(LookupQuery(id: "909253")), expected: .success(ModelTests.jackJohnson)),
    Case(
      testDescription: "malformed JSON fails decoding(invalidJSON)",
      reply: { .respond(status: 200, #"{"resultCount":1,"results":[{"wrapperType":"artist""#) },
      expected: .failure(.decoding(.invalidJSON(reason: "Unexpected end of file during JSON parse.")))),
    Case(
      testDescription: "404 fails http(badStatus(404))",
      reply: { .respond(status: 404, "not found") },
      expected: .failure(.http(.badStatus(404, body: Data("not found".utf8))))),
    Case(
      testDescription: "500 with a body fails http(badStatus(500)) with the body",
      reply: { .respond(status: 500, #"{"errorMessage":"database down"}"#) },
      expected: .failure(.http(.badStatus(500, body: Data(#"{"errorMessage":"database down"}"#.utf8))))),
    Case(
      testDescription: "resultCount 0 fails artistNotFound", id: "1",
      reply: answer(LookupQuery(id: "1")), expected: .failure(.artistNotFound(id: "1"))),
    Case(
      testDescription: "no Rock result fails noGenreMatch", id: "159260351",
      reply: answer(LookupQuery(id: "159260351")),
      expected: .failure(.noGenreMatch(genre: "Rock", id: "159260351", found: ["Pop"]))),
    Case(
      testDescription: "an artist among collections is found with the albums",
      reply: answer(LookupQuery(id: "909253", entity: "album")), expected: .success(ModelTests.jackJohnsonWithAlbums)),
    Case(
      testDescription: "a server that stalls past the timeout fails timedOut",
      reply: { .stall }, expected: .failure(.timedOut(seconds: 0.5)), timeout: 0.5),
    Case(
      testDescription: "a body cut off mid-way fails http(transportFailed(networkConnectionLost))",
      reply: { .cutOff(status: 200, body: Array(#"{"resultCount":1,"res"#.utf8), declaredLength: 400) },
      expected: .failure(.http(.transportFailed(.networkConnectionLost)))),
  ]

  static func options(_ baseURL: URL, id: String = "909253", timeout: Double = 0.5) -> Options {
    Options(query: LookupQuery(id: id), baseURL: baseURL, timeout: timeout)
  }

  @Test("each server answer arrives as the pipeline's typed result", .timeLimit(.minutes(1)), arguments: cases)
  func serverAnswers(_ testCase: Case) async throws {
    let reply = try testCase.reply()
    try await LoopbackHTTPServer.serving({ _ in reply }) { server in
      let options = Self.options(server.baseURL, id: testCase.id, timeout: testCase.timeout)
      let outcome = await pipeline(options, session: testSession).result
      #expect(outcome == testCase.expected)
    }
  }

  @Test("a refused connection fails http(transportFailed(cannotConnectToHost))")
  func refusedConnection() async throws {
    let closed = try ClosedPort()
    // Not a test of the timeout: a busy machine (a sanitizer run, other builds) can take longer than 0.5 s to refuse.
    let outcome = await pipeline(Self.options(closed.baseURL, timeout: 10), session: testSession).result
    #expect(outcome == .failure(.http(.transportFailed(.cannotConnectToHost))))
  }

  @Test(
    "cancelling a verbose run mid-flight cancels the request, prints nothing and logs the lookup as cancelled",
    .timeLimit(.minutes(1)))
  func cancellingAVerboseRunCancelsTheRequest() async throws {
    let captured = CapturedConsole()
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      let log = StageLog(console: captured.console)
      // A long timeout: this test is about cancelling, and a busy machine (the sanitizer run, other builds) can
      // take longer than the usual 0.5 s between the request arriving and `cancel()`.
      var options = Self.options(server.baseURL)
      options.timeout = 60
      let handle = pipeline(options, session: testSession, log: log).run(
        some: captured.console.printName, none: captured.console.printError)
      _ = await events.nextRequest()
      handle.cancel()
      #expect(await events.nextClose())
    }
    #expect(captured.output.isEmpty)
    #expect(captured.diagnostics.count == 1)
    #expect(captured.diagnostics.first?.hasPrefix("then ") == true)
    #expect(captured.diagnostics.first?.hasSuffix(" ms  cancelled") == true)
  }

  @Test("the timeout cancels the request when the time passes, on virtual time", .timeLimit(.minutes(1)))
  func timeoutCancelsTheRequest() async throws {
    let clock = VirtualScheduler()
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      var options = Self.options(server.baseURL)
      options.timeout = 30
      let outcome = Task { await pipeline(options, session: testSession, clock: clock).result }
      _ = await events.nextRequest()
      clock.advance(by: .seconds(29))
      clock.advance(by: .seconds(1))
      #expect(await outcome.value == .failure(.timedOut(seconds: 30)))
      #expect(await events.nextClose(), "the request was cancelled")
      #expect(clock.pendingCount == 0)
    }
  }

  @Test("the recorded source runs the same stages offline")
  func recordedSourceRunsOffline() async {
    let outcome = await pipeline(Options(), session: testSession).result
    #expect(outcome == .success(ModelTests.jackJohnson))
  }
}
