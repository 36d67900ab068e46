// The names Docs/Guides/Concurrency.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise
import LazyPromiseFoundation

struct Artist: Sendable { let artistName: String }
struct Profile: Sendable {}
enum APIError: Error { case timedOut, unavailable }
func lookup(id: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<Artist, LookupError> { .success(Artist(artistName: "Jack Johnson")) }
let id = "909253"
struct API: Sendable { func profile(id: Int) async throws(APIError) -> Profile { Profile() } }
let api = API()
func show<T>(_ value: T) {}
func report<E: Error>(_ error: E) {}
