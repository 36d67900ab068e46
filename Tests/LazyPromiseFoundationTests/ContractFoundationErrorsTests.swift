import Foundation
import LazyPromise
import LazyPromiseFoundation
import LazyPromiseTestSupport
import LoopbackHTTPServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Contract clauses 27 and 28 (Docs/Contract.md): what a request delivers, and the one
/// typed error for each way it can fail.
@Suite("Contract 27–28 — URLSession promise outcomes")
struct ContractFoundationErrorsTests {
  @Test("27.1 a 2xx answer delivers its body")
  func successDeliversTheBody() async throws {
    let json = #"{"resultCount":0,"results":[]}"#
    try await LoopbackHTTPServer.serving({ request in
      request.target == "/created" ? .respond(status: 201, body: []) : .respond(status: 200, json)
    }) { server in
      #expect(await get(server.baseURL).result == .success(Data(json.utf8)))
      #expect(await get(server.baseURL, "created").result == .success(Data()))
    }
  }

  @Test("28.1 a request that cannot be made fails invalidRequest, and nothing is sent")
  func invalidRequestsFailWithoutSending() async throws {
    let requests = Counter()
    try await LoopbackHTTPServer.serving({ _ in
      requests.increment()
      return .respond(status: 200, "{}")
    }) { server in
      var noURL = URLRequest(url: server.baseURL)
      noURL.url = nil
      var zeroTimeout = URLRequest(url: server.baseURL)
      zeroTimeout.timeoutInterval = 0
      var infiniteTimeout = URLRequest(url: server.baseURL)
      infiniteTimeout.timeoutInterval = .infinity
      let cases: [(URLRequest, String)] = [
        (noURL, "the request has no URL"),
        (URLRequest(url: URL(string: "ftp://127.0.0.1/x")!), "ftp://127.0.0.1/x is not an http or https URL"),
        (URLRequest(url: URL(string: "http:///lookup")!), "http:///lookup has no host"),
        (zeroTimeout, "the timeout must be between 0 and 1000000000 seconds, not 0.0"),
        (infiniteTimeout, "the timeout must be between 0 and 1000000000 seconds, not inf"),
      ]
      for (request, reason) in cases {
        #expect(await testSession.dataPromise(for: request).result == .failure(.invalidRequest(reason: reason)))
      }
      #expect(requests.current == 0)
    }
  }

  @Test("28.2 a non-2xx status fails badStatus with the status and the body")
  func nonSuccessStatusFailsWithStatusAndBody() async throws {
    try await LoopbackHTTPServer.serving({ request in
      request.target == "/missing"
        ? .respond(status: 404, "no such page") : .respond(status: 500, #"{"error":"database down"}"#)
    }) { server in
      #expect(
        await get(server.baseURL, "missing").result == .failure(.badStatus(404, body: Data("no such page".utf8))))
      #expect(
        await get(server.baseURL, "broken").result
          == .failure(.badStatus(500, body: Data(#"{"error":"database down"}"#.utf8))))
    }
  }

  @Test("28.3 a refused connection fails transportFailed(cannotConnectToHost)")
  func refusedConnectionFailsCannotConnect() async throws {
    let closed = try ClosedPort()
    #expect(await get(closed.baseURL).result == .failure(.transportFailed(.cannotConnectToHost)))
  }

  @Test("28.4 a body cut off mid-way fails transportFailed(networkConnectionLost)")
  func cutOffBodyFailsConnectionLost() async throws {
    try await LoopbackHTTPServer.serving({ _ in
      .cutOff(status: 200, body: Array(#"{"resultCount":1,"res"#.utf8), declaredLength: 200)
    }) { server in
      #expect(await get(server.baseURL).result == .failure(.transportFailed(.networkConnectionLost)))
    }
  }

  @Test("28.5 no answer within the timeout fails timedOut", .timeLimit(.minutes(1)))
  func stalledServerFailsTimedOut() async throws {
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      #expect(await get(server.baseURL, timeout: 0.5).result == .failure(.timedOut))
    }
  }

  @Test("28.5 a fractional timeout never times out early")
  func fractionalTimeoutDoesNotTimeOutEarly() async throws {
    // swift-corelibs-foundation truncates 0.5 s to 0 s, which times out at once; the adapter rounds up.
    try await LoopbackHTTPServer.serving({ _ in .respond(status: 200, "{}") }) { server in
      #expect(await get(server.baseURL, timeout: 0.5).result == .success(Data("{}".utf8)))
    }
  }

  @Test("28.6 a data task cancelled from outside the promise fails cancelled", .timeLimit(.minutes(1)))
  func taskCancelledFromOutsideFailsCancelled() async throws {
    // Its own session, so that cancelling every task touches no other test's request.
    let session = URLSession(configuration: .withoutCache)
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      async let outcome = session.dataPromise(from: server.baseURL.appending(path: "lookup")).result
      _ = await events.nextRequest()
      session.getAllTasks { tasks in tasks.forEach { $0.cancel() } }
      #expect(await outcome == .failure(.cancelled))
    }
  }
}
