import Foundation
import LoopbackHTTPServer
import Testing

@testable import ITunesLookup

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The example written with nested completion handlers, as Docs/Examples/ITunesLookup.md shows it
/// beside the pipeline. Kept here so the guide's comparison compiles and behaves the same.
func lookUpWithCallbacks(
  id: String, genre: String, baseURL: URL, session: URLSession,
  completion: @escaping @Sendable (Result<Artist, LookupError>) -> Void
) {
  var request = URLRequest(url: lookupURL(LookupQuery(id: id), baseURL: baseURL))
  request.timeoutInterval = 10
  session.dataTask(with: request) { data, response, error in
    if let error = error as? URLError {
      completion(.failure(.http(error.code == .timedOut ? .timedOut : .transportFailed(error.code))))
      return
    }
    guard let response = response as? HTTPURLResponse, let data else {
      completion(.failure(.http(.transportFailed(.badServerResponse))))
      return
    }
    guard (200..<300).contains(response.statusCode) else {
      completion(.failure(.http(.badStatus(response.statusCode, body: data))))
      return
    }
    do {
      let decoded = try JSONDecoder().decode(LookupResponse.self, from: data)
      switch toModel(decoded) {
      case .failure(let error):
        completion(.failure(error))
      case .success(let lookup):
        switch filter(genre: genre, id: id)(lookup) {
        case .failure(let error):
          completion(.failure(error))
        case .success(let artist):
          completion(.success(artist))
        }
      }
    } catch {
      completion(.failure(.decoding(.invalidJSON(reason: "\(error)"))))
    }
  }.resume()
}

@Suite("The guide's nested-callback version")
struct NestedCallbacksTests {
  @Test("it finds the same artist, and the same error, as the pipeline")
  func sameOutcomesAsThePipeline() async throws {
    let answer = try recorded(LookupQuery(id: "909253"))
    try await LoopbackHTTPServer.serving({ request in
      request.target.contains("909253") ? .respond(status: 200, body: Array(answer)) : .respond(status: 404, "")
    }) { server in
      for id in ["909253", "404"] {
        let nested = await withCheckedContinuation { continuation in
          lookUpWithCallbacks(id: id, genre: "Rock", baseURL: server.baseURL, session: testSession) {
            continuation.resume(returning: $0)
          }
        }
        let options = Options(query: LookupQuery(id: id), baseURL: server.baseURL)
        #expect(nested == (await pipeline(options, session: testSession).result))
      }
    }
  }
}
