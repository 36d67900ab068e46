import Testing

@testable import ITunesLookup

@Suite("Stage 4 — filter")
struct FilterTests {
  static func artist(_ name: String, genre: String) -> Artist {
    Artist(id: 1, name: name, kind: "Artist", link: "", amgID: nil, genre: genre, genreID: 0)
  }

  static let lookup = ArtistLookup(
    artists: [artist("A", genre: "Pop"), artist("B", genre: "Rock"), artist("C", genre: "Rock")], albums: [])

  @Test("the first artist in the genre is picked")
  func firstArtistInGenreIsPicked() {
    #expect(filter(genre: "Rock", id: "1")(Self.lookup) == .success(Self.artist("B", genre: "Rock")))
  }

  @Test("the picked artist carries the lookup's albums by that artist, and no others")
  func pickedArtistCarriesItsAlbums() {
    let mine = Album(id: 10, name: "Mine", artistID: 1, trackCount: 9)
    let other = Album(id: 11, name: "Other", artistID: 2, trackCount: nil)
    let lookup = ArtistLookup(artists: [Self.artist("B", genre: "Rock")], albums: [mine, other])
    var expected = Self.artist("B", genre: "Rock")
    expected.albums = [mine]
    #expect(filter(genre: "Rock", id: "1")(lookup) == .success(expected))
  }

  @Test("the genre is compared without regard to case")
  func genreIgnoresCase() {
    #expect(filter(genre: "pop", id: "1")(Self.lookup) == .success(Self.artist("A", genre: "Pop")))
  }

  @Test("no artist at all fails artistNotFound")
  func noArtistFails() {
    #expect(filter(genre: "Rock", id: "1")(ArtistLookup(artists: [], albums: [])) == .failure(.artistNotFound(id: "1")))
  }

  @Test("no artist in the genre fails noGenreMatch, naming the genres found")
  func noGenreMatchFails() {
    #expect(
      filter(genre: "Jazz", id: "1")(Self.lookup)
        == .failure(.noGenreMatch(genre: "Jazz", id: "1", found: ["Pop", "Rock", "Rock"])))
  }
}
