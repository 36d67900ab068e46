// The names Docs/Guides/Migrating.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise

enum APIError: Error, Equatable, CancellationRepresentable { case offline, notFound, unreadable, cancelled }
enum ParseError: Error { case malformed }
enum FileError: Error { case unreadable }
struct User: Sendable { let id: Int; let name: String; let albumIDs: [Int] }
struct Avatar: Sendable {}
struct Album: Sendable, Comparable {
  let title: String
  var isPublic: Bool { true }
  static func < (lhs: Album, rhs: Album) -> Bool { lhs.title < rhs.title }
}
struct Profile: Sendable { let name: String }

func fetchUser() -> Promise<User, APIError> { Promise(value: User(id: 1, name: "Ada", albumIDs: [1, 2])) }
func fetchAvatar(for user: User) -> Promise<Avatar, APIError> { Promise(value: Avatar()) }
func fetchAlbum(id: Int) -> Promise<Album, APIError> { Promise(value: Album(title: "\(id)")) }
func loadUser() async throws(APIError) -> User { User(id: 1, name: "Ada", albumIDs: []) }
func loadAvatar(for user: User) async throws(APIError) -> Avatar { Avatar() }
func parseProfile(_ data: Data) -> Result<Profile, ParseError> { .success(Profile(name: "Ada")) }
func download(_ id: Int) -> Promise<Data, APIError> { Promise(value: Data()) }
func openFile() -> Promise<Data, FileError> { Promise(value: Data()) }
func closeFile() -> Promise<Void, Never> { Promise() }
func log(_ error: some Error) {}

/// The screen a result is shown on: main-actor state, as UI code is.
@MainActor final class Screen {
  nonisolated init() {}
  func show(_ avatar: Avatar) {}
  func show(_ error: APIError) {}
}
let screen = Screen()

/// A callback API in swift-nio's style: answers with a `Result`.
struct ProfileClient: Sendable {
  func get(id: Int, _ completion: @escaping @Sendable (Result<Profile, APIError>) -> Void) {
    completion(.success(Profile(name: "Ada")))
  }
}
let profiles = ProfileClient()
