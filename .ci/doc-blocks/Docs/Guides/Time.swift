// The names Docs/Guides/Time.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise
import LazyPromiseFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct Artist: Equatable, Sendable { let name: String }
let session = URLSession.shared
let url = URL(string: "https://example.com/lookup")!
let queue = DispatchQueue(label: "lookups")
let id = "909253"
func lookup(_ id: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<Artist, LookupError> { .success(Artist(name: "Jack Johnson")) }
func enrich(_ artist: Artist) -> Promise<Artist, LookupError> { Promise(value: artist) }
/// A lookup that never answers.
var slowLookup: Promise<Artist, LookupError> { Promise { _ in } }
func show<T>(_ value: T) {}
func report<E: Error>(_ error: E) {}
