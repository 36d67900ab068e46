/// An artist, as the example uses it.
struct Artist: Equatable, Sendable {
  /// The iTunes artist id.
  var id: Int
  /// `Jack Johnson`.
  var name: String
  /// `Artist`, `Band`, ...
  var kind: String
  /// The artist's page on Apple Music.
  var link: String
  /// The All Music Guide id, which some artists lack.
  var amgID: Int?
  /// The primary genre's name, `Rock`.
  var genre: String
  /// The primary genre's id, `21` for Rock.
  var genreID: Int
  /// The artist's albums, when the lookup asked for them (`--entity album`); filled in by ``filter(genre:id:)``.
  var albums: [Album] = []
}

/// An album (a `collection` entry), as the example uses it.
struct Album: Equatable, Sendable {
  /// The iTunes collection id.
  var id: Int
  /// `In Between Dreams`.
  var name: String
  /// The id of the album's artist.
  var artistID: Int
  /// How many tracks it has, when the API says.
  var trackCount: Int?
}

/// What a lookup found: the artists, and the albums when the query asked for them.
struct ArtistLookup: Equatable, Sendable {
  /// The `artist` entries, in the API's order.
  var artists: [Artist]
  /// The `collection` entries, in the API's order.
  var albums: [Album]
}

/// Stage 3, model: the decoded answer as ``Artist``s and ``Album``s.
///
/// Runs synchronously. Entries of other kinds (songs, ...) are skipped. Fails with
/// ``LookupError/resultCountMismatch(declared:received:)`` when `resultCount` disagrees with the
/// results, and ``LookupError/incompleteResult(index:wrapperType:missing:)`` when an artist or album
/// lacks a field the example needs.
func toModel(_ response: LookupResponse) -> Result<ArtistLookup, LookupError> {
  guard response.resultCount == response.results.count else {
    return .failure(.resultCountMismatch(declared: response.resultCount, received: response.results.count))
  }
  var lookup = ArtistLookup(artists: [], albums: [])
  for (index, entry) in response.results.enumerated() {
    switch entry.wrapperType {
    case "artist":
      guard let id = entry.artistId, let name = entry.artistName, let kind = entry.artistType,
        let link = entry.artistLinkUrl, let genre = entry.primaryGenreName, let genreID = entry.primaryGenreId
      else {
        let fields: [(String, Any?)] = [
          ("artistId", entry.artistId), ("artistName", entry.artistName), ("artistType", entry.artistType),
          ("artistLinkUrl", entry.artistLinkUrl), ("primaryGenreName", entry.primaryGenreName),
          ("primaryGenreId", entry.primaryGenreId),
        ]
        return .failure(.incompleteResult(index: index, wrapperType: "artist", missing: missing(fields)))
      }
      let artist = Artist(
        id: id, name: name, kind: kind, link: link, amgID: entry.amgArtistId, genre: genre, genreID: genreID)
      lookup.artists.append(artist)
    case "collection":
      guard let id = entry.collectionId, let name = entry.collectionName, let artistID = entry.artistId else {
        let fields: [(String, Any?)] = [
          ("collectionId", entry.collectionId), ("collectionName", entry.collectionName), ("artistId", entry.artistId),
        ]
        return .failure(.incompleteResult(index: index, wrapperType: "collection", missing: missing(fields)))
      }
      lookup.albums.append(Album(id: id, name: name, artistID: artistID, trackCount: entry.trackCount))
    default:
      continue
    }
  }
  return .success(lookup)
}

/// The names of the fields whose value is `nil`.
private func missing(_ fields: [(String, Any?)]) -> [String] {
  fields.filter { $0.1 == nil }.map(\.0)
}
