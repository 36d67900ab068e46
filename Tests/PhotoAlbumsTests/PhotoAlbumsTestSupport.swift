import ExampleSupport
import Foundation
import LazyPromise
import LoopbackHTTPServer
import Synchronization

@testable import PhotoAlbums

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the example's tests share.
let testSession = URLSession.forExamples()

/// Runs `version` once from `source` and awaits its result.
func result(of version: Version, from source: AlbumSource) async -> Result<[UserWithAlbums], AlbumsError> {
  await timedRun(version, from: source).result
}

/// A server that answers `/users`, `/albums` and `/photos` with the recordings, except where `override` answers.
func recordingsServer(
  _ override: @escaping @Sendable (String) -> LoopbackHTTPServer.Reply? = { _ in nil }
) -> @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
  { request in
    let name = String(request.target.dropFirst())
    if let reply = override(name) { return reply }
    guard let endpoint = Endpoint(rawValue: name), let data = try? recording(of: endpoint).get() else {
      return .respond(status: 404, "not found")
    }
    return .respond(status: 200, body: Array(data))
  }
}
