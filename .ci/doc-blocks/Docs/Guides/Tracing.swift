// The names Docs/Guides/Tracing.md's examples use without defining them (the iTunes lookup example's stages).
import Foundation
import LazyPromise

enum LookupError: Error { case noResult }
struct LookupQuery: Sendable {}
struct LookupResponse: Sendable {}
struct ArtistLookup: Sendable {}
struct Artist: Sendable {}
let query = LookupQuery()
let source = "recorded"
func lookUp(_ query: LookupQuery, from source: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<LookupResponse, LookupError> { .success(LookupResponse()) }
func toModel(_ response: LookupResponse) -> Result<ArtistLookup, LookupError> { .success(ArtistLookup()) }
func filter(genre: String, id: String) -> @Sendable (ArtistLookup) -> Result<Artist, LookupError> {
  { _ in .success(Artist()) }
}
