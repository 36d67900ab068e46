// The names Docs/Guides/Combinators.md's examples use without defining them.
import LazyPromise

enum APIError: Error { case unavailable }
struct User: Sendable {}
struct Album: Sendable { let photos: [Photo] }
struct Photo: Sendable {}
struct Thumbnail: Sendable {}
struct Merged: Sendable {}
struct Mirror: Sendable {}
struct Artist: Sendable {}
func users() -> Promise<[User], APIError> { Promise(value: []) }
func albums() -> Promise<[Album], APIError> { Promise(value: []) }
func photos() -> Promise<[Photo], APIError> { Promise(value: []) }
func merge(_ users: [User], _ albums: [Album], _ photos: [Photo]) -> Merged { Merged() }
func downloadThumbnail(_ photo: Photo) -> Promise<Thumbnail, APIError> { Promise(value: Thumbnail()) }
func lookup(on mirror: Mirror) -> Promise<Artist, APIError> { Promise(value: Artist()) }
func downloadSize(_ page: Int) -> Promise<Int, APIError> { Promise(value: page) }
let album = Album(photos: [])
let primary = Mirror()
let mirror = Mirror()
let mirrors = [primary, mirror]
let pages = [1, 2, 3]
func show<T>(_ value: T) {}
func report<E: Error>(_ error: E) {}
