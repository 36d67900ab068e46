import Foundation
import LazyPromise
import LazyPromiseFoundation
import Testing

/// Contract clause 30 (Docs/Contract.md): decoding JSON with a typed error.
@Suite("Contract 30 — decoding JSON")
struct JSONDecodingTests {
  struct Response: Decodable, Equatable {
    var resultCount: Int
    var results: [Entry]
  }

  struct Entry: Decodable, Equatable {
    var artistName: String
    var artistId: Int
  }

  struct Positive: Decodable, Equatable {
    var value: Int

    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(Int.self)
      guard value > 0 else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not positive"))
      }
    }
  }

  enum AppError: Error, Equatable {
    case http(HTTPError)
    case decoding(JSONDecodingError)
  }

  func decode(_ json: String) -> Result<Response, JSONDecodingError> {
    decodeJSON(Response.self, from: Data(json.utf8))
  }

  @Test("30.1 valid JSON decodes into the type")
  func validJSONDecodes() {
    let json = #"{"resultCount":1,"results":[{"artistName":"Jack Johnson","artistId":909253}]}"#
    #expect(
      decode(json) == .success(Response(resultCount: 1, results: [Entry(artistName: "Jack Johnson", artistId: 909253)]))
    )
  }

  @Test("30.2 bytes that are not JSON fail invalidJSON with the parser's reason")
  func malformedJSONFailsInvalidJSON() {
    #expect(
      decode(#"{"resultCount":1,"#) == .failure(.invalidJSON(reason: "Unexpected end of file during JSON parse.")))
    #expect(decode("") == .failure(.invalidJSON(reason: "Unexpected end of file during JSON parse.")))
  }

  @Test("30.3 a missing key, a null, a wrong type and a rejected value each name the path")
  func shapeErrorsNameThePath() {
    #expect(decode(#"{"resultCount":0}"#) == .failure(.missingKey("results", path: "$")))
    #expect(
      decode(#"{"resultCount":1,"results":[{"artistName":"Jack Johnson"}]}"#)
        == .failure(.missingKey("artistId", path: "$.results[0]")))
    #expect(
      decode(#"{"resultCount":1,"results":[{"artistName":null,"artistId":1}]}"#)
        == .failure(.missingValue(type: "String", path: "$.results[0].artistName")))
    #expect(
      decode(#"{"resultCount":"one","results":[]}"#) == .failure(.typeMismatch(type: "Int", path: "$.resultCount")))
    #expect(
      decodeJSON([Positive].self, from: Data("[1,-2]".utf8))
        == .failure(.invalidValue(reason: "not positive", path: "$[1]")))
  }

  @Test("30.4 the stage form fits then, its error mapped into the chain's")
  func stageFormFitsThen() async {
    let body = Promise<Data, AppError>(value: Data(#"{"resultCount":0,"results":[]}"#.utf8))
    let decoded = body.then(decodeJSON(Response.self, mapError: AppError.decoding))
    #expect(await decoded.result == .success(Response(resultCount: 0, results: [])))
    let broken = Promise<Data, AppError>(value: Data("[]".utf8)).then(
      decodeJSON(Response.self, mapError: AppError.decoding))
    #expect(
      await broken.result == .failure(.decoding(.typeMismatch(type: "Dictionary<String, Any>", path: "$"))))
  }

  @Test("the description says what failed and where")
  func descriptionsAreOneLine() {
    #expect(
      "\(JSONDecodingError.missingKey("artistName", path: "$.results[0]"))"
        == #"missing key "artistName" at $.results[0]"#)
    #expect("\(JSONDecodingError.typeMismatch(type: "Int", path: "$.resultCount"))" == "expected Int at $.resultCount")
  }
}
