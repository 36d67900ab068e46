import Foundation
import LazyPromiseFoundation

/// The lookup API's answer as it arrives: `{"resultCount": N, "results": [...]}`.
///
/// Results are heterogeneous (an artist, then albums, songs, ...), told apart by `wrapperType`,
/// so every field but `wrapperType` is optional here; ``toModel(_:)`` decides what each kind needs.
struct LookupResponse: Decodable, Equatable, Sendable {
  /// How many results the API says it sent.
  var resultCount: Int
  /// The results, in the API's order.
  var results: [LookupEntry]
}

/// One entry of ``LookupResponse/results``, any kind: the fields the example reads.
struct LookupEntry: Decodable, Equatable, Sendable {
  /// `artist`, `collection`, `track`, ...
  var wrapperType: String
  var artistType: String?
  var artistName: String?
  var artistLinkUrl: String?
  var artistId: Int?
  var amgArtistId: Int?
  var primaryGenreName: String?
  var primaryGenreId: Int?
  var collectionType: String?
  var collectionId: Int?
  var collectionName: String?
  var trackCount: Int?
  var releaseDate: String?
}

/// Stage 2, decode: the lookup API's bytes as a ``LookupResponse``.
///
/// Runs synchronously on the thread that delivers the bytes. Fails with
/// ``LookupError/decoding(_:)`` when the bytes are not JSON or not the lookup API's envelope.
func decode(_ data: Data) -> Result<LookupResponse, LookupError> {
  decodeJSON(LookupResponse.self, from: data).mapError(LookupError.decoding)
}
