import Foundation
import LazyPromiseTestSupport
import LoopbackHTTPServer
import Synchronization
import Testing

@testable import ITunesLookup

@Suite("Stage 1 — lookup")
struct LookUpTests {
  @Test("a recorded lookup delivers the recorded bytes")
  func recordedLookupDeliversTheRecording() async throws {
    let query = LookupQuery(id: "909253")
    #expect(await lookUp(query, from: .recorded).result == .success(try recorded(query)))
  }

  @Test("every recorded query has its file")
  func everyRecordingLoads() throws {
    for query in Recordings.files.keys {
      #expect(throws: Never.self) { try recorded(query) }
    }
  }

  @Test("a query with no recording fails noRecording")
  func unrecordedQueryFails() async {
    let query = LookupQuery(id: "5")
    #expect(await lookUp(query, from: .recorded).result == .failure(.noRecording(query)))
  }

  @Test("the lookup URL carries the id and the entity")
  func lookupURLCarriesTheQuery() {
    let base = URL(string: "http://127.0.0.1:8080")!
    #expect(
      lookupURL(LookupQuery(id: "909253"), baseURL: base).absoluteString == "http://127.0.0.1:8080/lookup?id=909253")
    #expect(
      lookupURL(LookupQuery(id: "909253", entity: "album"), baseURL: Options.apiURL).absoluteString
        == "https://itunes.apple.com/lookup?id=909253&entity=album")
  }

  @Test("a live lookup asks the server once per run, for the query")
  func liveLookupAsksTheServer() async throws {
    let targets = Locked<[String]>([])
    try await LoopbackHTTPServer.serving({ request in
      targets.withLock { $0.append(request.target) }
      return .respond(status: 200, "{}")
    }) { server in
      let lookup = lookUp(
        LookupQuery(id: "909253", entity: "album"),
        from: .live(baseURL: server.baseURL, session: testSession, timeout: 5))
      #expect(targets.withLock { $0 }.isEmpty)
      #expect(await lookup.result == .success(Data("{}".utf8)))
      #expect(await lookup.result == .success(Data("{}".utf8)))
      #expect(targets.withLock { $0 } == ["/lookup?id=909253&entity=album", "/lookup?id=909253&entity=album"])
    }
  }
}
