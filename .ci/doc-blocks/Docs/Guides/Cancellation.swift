// The names Docs/Guides/Cancellation.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

enum LookupError: Error { case noResult }
struct Artist: Sendable { let name: String }
let session = URLSession.shared
let id = "909253"
func lookup(id: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<Artist, LookupError> { .success(Artist(name: "Jack Johnson")) }
func show<T>(_ value: T) {}
func report<E: Error>(_ error: E) {}
struct Spinner: Sendable {
  func show() {}
  func hide() {}
}
let spinner = Spinner()
