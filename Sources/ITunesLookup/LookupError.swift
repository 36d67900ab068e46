import Foundation
import LazyPromise
import LazyPromiseFoundation

/// Everything that can go wrong between asking for an artist and printing its name, one case per
/// reason. The description is the one line the tool prints after `error: `.
enum LookupError: Error, Hashable, Sendable {
  /// The request to the lookup API failed.
  case http(HTTPError)
  /// The answer is not JSON, or not the lookup API's envelope.
  case decoding(JSONDecodingError)
  /// There is no recorded answer for the query (only `--live` can answer it).
  case noRecording(LookupQuery)
  /// `resultCount` says `declared` but `results` holds `received` entries.
  case resultCountMismatch(declared: Int, received: Int)
  /// The entry at `index` (of kind `wrapperType`) lacks fields the example needs.
  case incompleteResult(index: Int, wrapperType: String, missing: [String])
  /// The lookup found no artist with this id.
  case artistNotFound(id: String)
  /// The lookup found artists, but none in `genre`; `found` are the genres it did find.
  case noGenreMatch(genre: String, id: String, found: [String])
  /// The lookup took longer than `--timeout`; the request was cancelled.
  case timedOut(seconds: TimeInterval)
  /// The lookup was cancelled (Ctrl-C); the request was cancelled.
  case cancelled
}

/// `cancelled` lets `await pipeline.result` end at once, typed, when the tool's task is cancelled.
extension LookupError: CancellationRepresentable {}

extension LookupError: CustomStringConvertible {
  /// One line that says what went wrong, e.g. `no Rock result for artist id 159260351 (found: Pop)`.
  var description: String {
    switch self {
    case .http(let error):
      return "the lookup request failed: \(error)"
    case .decoding(let error):
      return "the answer is not a lookup result: \(error)"
    case .noRecording(let query):
      let entity = query.entity.map { " with entity \($0)" } ?? ""
      return "no recorded answer for artist id \(query.id)\(entity) (recorded: \(Recordings.summary)); "
        + "add --live to ask the iTunes API"
    case .resultCountMismatch(let declared, let received):
      return "resultCount says \(declared) but there are \(received) results"
    case .incompleteResult(let index, let wrapperType, let missing):
      return "result \(index) (\(wrapperType)) lacks \(missing.joined(separator: ", "))"
    case .artistNotFound(let id):
      return "no artist with id \(id)"
    case .noGenreMatch(let genre, let id, let found):
      return "no \(genre) result for artist id \(id) (found: \(found.joined(separator: ", ")))"
    case .timedOut(let seconds):
      return "no answer within \(String(format: "%g", seconds)) seconds (--timeout)"
    case .cancelled:
      return "cancelled"
    }
  }
}
