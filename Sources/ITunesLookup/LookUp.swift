import Foundation
import LazyPromise
import LazyPromiseFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What to look up: an iTunes artist id, and optionally an `entity` (e.g. `album`) whose entries
/// the API should add to the artist.
struct LookupQuery: Hashable, Sendable {
  /// The iTunes artist id, e.g. `909253`.
  var id: String
  /// The kind of entries to add to the artist (`album`, `song`, ...), or `nil` for the artist alone.
  var entity: String? = nil
}

/// Where the lookup's bytes come from.
enum LookupSource: Sendable {
  /// The responses recorded with the example (see ``Recordings``): no network.
  case recorded
  /// An HTTP server with the lookup API at `baseURL` (the real one is `https://itunes.apple.com`),
  /// asked on `session` with `timeout` seconds to answer.
  case live(baseURL: URL, session: URLSession, timeout: TimeInterval)
}

/// Stage 1, lookup: a lazy promise of the lookup API's answer to `query`, as bytes.
///
/// Nothing is read or sent until the promise runs, and each run asks again. A recorded answer is
/// delivered at once on the running thread; a live one on the URLSession's delegate queue.
func lookUp(_ query: LookupQuery, from source: LookupSource) -> Promise<Data, LookupError> {
  switch source {
  case .recorded:
    return Promise { completion in completion(Recordings.response(to: query)) }
  case .live(let baseURL, let session, let timeout):
    return session.dataPromise(from: lookupURL(query, baseURL: baseURL), timeout: timeout).mapError(LookupError.http)
  }
}

/// `<baseURL>/lookup?id=<id>[&entity=<entity>]`.
func lookupURL(_ query: LookupQuery, baseURL: URL) -> URL {
  var items = [URLQueryItem(name: "id", value: query.id)]
  if let entity = query.entity { items.append(URLQueryItem(name: "entity", value: entity)) }
  return baseURL.appending(path: "lookup").appending(queryItems: items)
}
