import Foundation
import LazyPromise
import LazyPromiseFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The three JSONPlaceholder endpoints the example reads.
enum Endpoint: String, CaseIterable, Hashable, Sendable {
  case users, albums, photos
}

/// Where the bytes come from.
enum AlbumSource: Sendable {
  /// The answers recorded with the example (`Resources/*.json`), delivered after `latency` on a global queue
  /// (at once, on the calling thread, when it is zero): no network.
  case recorded(latency: Duration)
  /// A server with JSONPlaceholder's API at `baseURL` (the real one is `https://jsonplaceholder.typicode.com`),
  /// asked on `session` with `timeout` seconds to answer.
  case live(baseURL: URL, session: URLSession, timeout: TimeInterval)
}

// MARK: - Bytes, as a callback and as a promise

/// The answer to `endpoint` as bytes, handed to `completion` once. The lowest layer every version shares.
func fetch(
  _ endpoint: Endpoint, from source: AlbumSource, completion: @escaping @Sendable (Result<Data, AlbumsError>) -> Void
) {
  switch source {
  case .recorded(let latency):
    let answer = recording(of: endpoint)
    guard latency > .zero else { return completion(answer) }
    let (seconds, attoseconds) = latency.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { completion(answer) }
  case .live:
    fetch(endpoint, from: source).run(completion)
  }
}

/// A lazy promise of the answer to `endpoint` as bytes: nothing is read or sent until it runs, and each run asks
/// again; cancelling a live run cancels its request.
func fetch(_ endpoint: Endpoint, from source: AlbumSource) -> Promise<Data, AlbumsError> {
  switch source {
  case .recorded:
    return Promise { completion in fetch(endpoint, from: source, completion: completion) }
  case .live(let baseURL, let session, let timeout):
    return session.dataPromise(from: baseURL.appending(path: endpoint.rawValue), timeout: timeout)
      .mapError { AlbumsError.http($0, endpoint) }
  }
}

/// The recorded answer to `endpoint`.
func recording(of endpoint: Endpoint) -> Result<Data, AlbumsError> {
  guard let url = Bundle.module.url(forResource: endpoint.rawValue, withExtension: "json", subdirectory: "Resources"),
    let data = try? Data(contentsOf: url)
  else { return .failure(.noRecording(endpoint)) }
  return .success(data)
}

// MARK: - Decoding

/// Decodes the answer to `/users`.
let decodeUsers = decodeJSON([User].self) { AlbumsError.decoding($0, .users) }
/// Decodes the answer to `/albums`.
let decodeAlbums = decodeJSON([Album].self) { AlbumsError.decoding($0, .albums) }
/// Decodes the answer to `/photos`.
let decodePhotos = decodeJSON([Photo].self) { AlbumsError.decoding($0, .photos) }

/// The users, as a lazy promise.
func users(from source: AlbumSource) -> Promise<[User], AlbumsError> {
  fetch(.users, from: source).then(decodeUsers)
}

/// The albums, as a lazy promise.
func albums(from source: AlbumSource) -> Promise<[Album], AlbumsError> {
  fetch(.albums, from: source).then(decodeAlbums)
}

/// The photos, as a lazy promise.
func photos(from source: AlbumSource) -> Promise<[Photo], AlbumsError> {
  fetch(.photos, from: source).then(decodePhotos)
}
