/// Stage 4, filter: a stage that picks, from a lookup of artist `id`, the first artist whose
/// primary genre is `genre` (compared without regard to case), with the lookup's albums by that artist.
///
/// The returned function runs synchronously. It fails with ``LookupError/artistNotFound(id:)``
/// when the lookup found no artist, and ``LookupError/noGenreMatch(genre:id:found:)`` when none
/// has the genre.
func filter(genre: String, id: String) -> @Sendable (ArtistLookup) -> Result<Artist, LookupError> {
  { lookup in
    guard !lookup.artists.isEmpty else { return .failure(.artistNotFound(id: id)) }
    guard var artist = lookup.artists.first(where: { $0.genre.lowercased() == genre.lowercased() }) else {
      return .failure(.noGenreMatch(genre: genre, id: id, found: lookup.artists.map(\.genre)))
    }
    artist.albums = lookup.albums.filter { $0.artistID == artist.id }
    return .success(artist)
  }
}
