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
