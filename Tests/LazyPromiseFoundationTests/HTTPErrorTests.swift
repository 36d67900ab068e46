import Foundation
import LazyPromiseFoundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("HTTPError")
struct HTTPErrorTests {
  @Test("each case describes itself in one line")
  func descriptionsAreOneLine() {
    #expect("\(HTTPError.badStatus(404, body: Data()))" == "the server answered 404 Not Found")
    #expect(
      "\(HTTPError.badStatus(500, body: Data("{\"error\":\"database down\"}\nmore".utf8)))"
        == #"the server answered 500 Internal Server Error: "{"error":"database down"}""#)
    #expect(
      "\(HTTPError.transportFailed(.cannotConnectToHost))"
        == "the transport failed: could not connect to the host (URLError -1004)")
    #expect("\(HTTPError.timedOut)" == "the request timed out")
    #expect("\(HTTPError.cancelled)" == "the request was cancelled")
    #expect(
      "\(HTTPError.invalidRequest(reason: "the request has no URL"))"
        == "the request could not be made: the request has no URL")
  }

  @Test("a long body is cut to 80 characters in the description")
  func longBodiesAreShortened() {
    let body = Data(String(repeating: "x", count: 300).utf8)
    #expect(
      "\(HTTPError.badStatus(503, body: body))"
        == "the server answered 503 Service Unavailable: \"\(String(repeating: "x", count: 80))…\"")
  }
}
