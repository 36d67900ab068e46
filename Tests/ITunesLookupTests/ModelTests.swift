import Testing

@testable import ITunesLookup

@Suite("Stage 3 — model")
struct ModelTests {
  static let jackJohnson = Artist(
    id: 909253, name: "Jack Johnson", kind: "Artist",
    link: "https://music.apple.com/us/artist/jack-johnson/909253?uo=4",
    amgID: 468749, genre: "Rock", genreID: 21)

  @Test("an artist entry becomes an Artist")
  func artistEntryBecomesAnArtist() throws {
    let lookup = try toModel(recordedResponse(LookupQuery(id: "909253"))).get()
    #expect(lookup == ArtistLookup(artists: [Self.jackJohnson], albums: []))
  }

  /// ``jackJohnson`` as the filter stage returns him from the `--entity album` lookup.
  static var jackJohnsonWithAlbums: Artist {
    var artist = jackJohnson
    artist.albums = [
      Album(id: 879273552, name: "In Between Dreams", artistID: 909253, trackCount: 14),
      Album(id: 879273578, name: "On and On", artistID: 909253, trackCount: 16),
      Album(id: 879273511, name: "Brushfire Fairytales", artistID: 909253, trackCount: 13),
    ]
    return artist
  }

  @Test("collections become albums beside the artist")
  func collectionsBecomeAlbums() throws {
    let lookup = try toModel(recordedResponse(LookupQuery(id: "909253", entity: "album"))).get()
    #expect(lookup.artists == [Self.jackJohnson])
    #expect(lookup.albums.map(\.name) == ["In Between Dreams", "On and On", "Brushfire Fairytales"])
    #expect(lookup.albums.first == Album(id: 879273552, name: "In Between Dreams", artistID: 909253, trackCount: 14))
  }

  @Test("an empty answer is an empty lookup")
  func emptyAnswerIsEmpty() throws {
    #expect(try toModel(recordedResponse(LookupQuery(id: "1"))).get() == ArtistLookup(artists: [], albums: []))
  }

  @Test("entries of other kinds are skipped")
  func otherKindsAreSkipped() {
    let response = LookupResponse(resultCount: 1, results: [LookupEntry(wrapperType: "track")])
    #expect(toModel(response) == .success(ArtistLookup(artists: [], albums: [])))
  }

  @Test("a resultCount that disagrees with the results fails")
  func countMismatchFails() {
    let response = LookupResponse(resultCount: 2, results: [LookupEntry(wrapperType: "track")])
    #expect(toModel(response) == .failure(.resultCountMismatch(declared: 2, received: 1)))
  }

  @Test("an artist without the fields the example needs fails, naming them")
  func incompleteArtistFails() {
    let entry = LookupEntry(wrapperType: "artist", artistType: "Artist", artistName: "X", artistId: 1)
    let response = LookupResponse(resultCount: 2, results: [LookupEntry(wrapperType: "track"), entry])
    #expect(
      toModel(response)
        == .failure(
          .incompleteResult(
            index: 1, wrapperType: "artist", missing: ["artistLinkUrl", "primaryGenreName", "primaryGenreId"])))
  }

  @Test("an album without a name fails, naming it")
  func incompleteAlbumFails() {
    let entry = LookupEntry(wrapperType: "collection", artistId: 1, collectionId: 2)
    #expect(
      toModel(LookupResponse(resultCount: 1, results: [entry]))
        == .failure(.incompleteResult(index: 0, wrapperType: "collection", missing: ["collectionName"])))
  }
}
