// The names Docs/Guides/Future.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise
import LazyPromiseFoundation

enum APIError: Error { case unavailable }
enum LookupError: Error, CancellationRepresentable { case notFound, cancelled }
struct Photo: Sendable {}
struct User: Sendable { let name: String }
struct Artist: Sendable {}

let url = URL(string: "https://example.com/file")!
func lookup(id: String) -> Promise<Artist, LookupError> { Promise(value: Artist()) }
