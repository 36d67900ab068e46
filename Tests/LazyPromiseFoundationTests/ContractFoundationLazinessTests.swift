import Foundation
import LazyPromise
import LazyPromiseFoundation
import LazyPromiseTestSupport
import LoopbackHTTPServer
import Testing

/// Contract clause 26 (Docs/Contract.md): a URLSession promise is lazy.
@Suite("Contract 26 — URLSession promises are lazy")
struct ContractFoundationLazinessTests {
  @Test("26.1 making and chaining a URLSession promise sends nothing")
  func makingAndChainingSendsNothing() async throws {
    let requests = Counter()
    try await LoopbackHTTPServer.serving({ _ in
      requests.increment()
      return .respond(status: 200, "{}")
    }) { server in
      let promise = get(server.baseURL).map { $0.count }
      _ = get(server.baseURL).then { _ in get(server.baseURL) }
      #expect(requests.current == 0)
      // One run: exactly one request reaches the server, so none was sent before.
      #expect(await promise.result == .success(2))
      #expect(requests.current == 1)
    }
  }

  @Test("26.2 each run sends a new request")
  func eachRunSendsANewRequest() async throws {
    let requests = Counter()
    try await LoopbackHTTPServer.serving({ _ in .respond(status: 200, "\(requests.increment())") }) { server in
      let promise = get(server.baseURL).map { String(decoding: $0, as: UTF8.self) }
      var bodies: [String] = []
      for _ in 0..<3 { bodies.append(try await promise.result.get()) }
      #expect(bodies == ["1", "2", "3"])
      #expect(requests.current == 3)
    }
  }
}
