import Foundation
import LoopbackHTTPServer
import Testing

@testable import PhotoAlbums

/// The three versions side by side: the same answers in, the same users out; the same failures, typed.
@Suite("photo-albums versions")
struct VersionsTests {
  @Test("each version builds 10 users with 10 albums of 50 photos each", arguments: Version.allCases)
  func eachVersionBuildsTheWholeTree(version: Version) async throws {
    let merged = try await result(of: version, from: .recorded(latency: .zero)).get()
    #expect(merged.count == 10)
    #expect(merged.allSatisfy { $0.albums.count == 10 && $0.albums.allSatisfy { $0.photos.count == 50 } })
  }

  @Test("the three versions build the same result, also when the answers arrive later on other threads")
  func versionsAgree() async throws {
    for source in [AlbumSource.recorded(latency: .zero), .recorded(latency: .milliseconds(5))] {
      var results: [[UserWithAlbums]] = []
      for version in Version.allCases { results.append(try await result(of: version, from: source).get()) }
      #expect(results[0] == results[1] && results[1] == results[2])
      #expect(
        results[0]
          == merge(
            try decodeUsers(recording(of: .users).get()).get(), try decodeAlbums(recording(of: .albums).get()).get(),
            try decodePhotos(recording(of: .photos).get()).get()))
    }
  }

  @Test("the versions ask a live server for /users, /albums and /photos", arguments: Version.allCases)
  func versionsAskTheServer(version: Version) async throws {
    try await LoopbackHTTPServer.serving(recordingsServer()) { server in
      let source = AlbumSource.live(baseURL: server.baseURL, session: testSession, timeout: 10)
      let merged = try await result(of: version, from: source).get()
      #expect(summary(merged).first == "10 users, 100 albums, 5000 photos")
    }
  }

  @Test("a failing request fails every version with the same typed error", arguments: Version.allCases)
  func failingRequestFailsTyped(version: Version) async throws {
    let server = recordingsServer { name in name == "photos" ? .respond(status: 503, "busy") : nil }
    try await LoopbackHTTPServer.serving(server) { server in
      let source = AlbumSource.live(baseURL: server.baseURL, session: testSession, timeout: 10)
      let outcome = await result(of: version, from: source)
      #expect(outcome.failure == .http(.badStatus(503, body: Data("busy".utf8)), .photos))
    }
  }

  @Test(
    "an answer that is not the expected JSON fails every version with a decoding error", arguments: Version.allCases)
  func wrongJSONFailsTyped(version: Version) async throws {
    let server = recordingsServer { name in name == "users" ? .respond(status: 200, "{}") : nil }
    try await LoopbackHTTPServer.serving(server) { server in
      let source = AlbumSource.live(baseURL: server.baseURL, session: testSession, timeout: 10)
      guard case .decoding(_, .users)? = await result(of: version, from: source).failure else {
        Issue.record("expected a decoding error for /users")
        return
      }
    }
  }
}
