import Foundation
import Testing

@testable import ITunesLookup

@Suite("Stage 2 — decode")
struct DecodeTests {
  @Test("the recorded answer for 909253 decodes with every field")
  func recordedAnswerDecodes() throws {
    let response = try recordedResponse(LookupQuery(id: "909253"))
    #expect(response.resultCount == 1)
    #expect(
      response.results == [
        LookupEntry(
          wrapperType: "artist", artistType: "Artist", artistName: "Jack Johnson",
          artistLinkUrl: "https://music.apple.com/us/artist/jack-johnson/909253?uo=4", artistId: 909253,
          amgArtistId: 468749, primaryGenreName: "Rock", primaryGenreId: 21)
      ])
  }

  @Test("an artist mixed with collections decodes, each entry with its own fields")
  func heterogeneousResultsDecode() throws {
    let response = try recordedResponse(LookupQuery(id: "909253", entity: "album"))
    #expect(response.results.map(\.wrapperType) == ["artist", "collection", "collection", "collection"])
    #expect(response.results[0].collectionName == nil)
    #expect(response.results[1].collectionName == "In Between Dreams")
    #expect(response.results[1].artistLinkUrl == nil)
  }

  @Test("bytes that are not JSON fail decoding(invalidJSON)")
  func malformedJSONFails() {
    #expect(
      decode(Data(#"{"resultCount":1,"results":[{"#.utf8))
        == .failure(.decoding(.invalidJSON(reason: "Unexpected end of file during JSON parse."))))
  }

  @Test("JSON without the lookup envelope fails with the missing key")
  func wrongShapeFails() {
    #expect(decode(Data(#"{"resultCount":0}"#.utf8)) == .failure(.decoding(.missingKey("results", path: "$"))))
    #expect(
      decode(Data(#"{"resultCount":1,"results":[{"artistName":"X"}]}"#.utf8))
        == .failure(.decoding(.missingKey("wrapperType", path: "$.results[0]"))))
  }
}
