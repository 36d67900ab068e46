// The names Docs/Guides/Promise.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise
import Synchronization

enum NetworkError: Error { case offline, empty }
enum LookupError: Error { case noResult, noRockArtist }
enum DownloadError: Error { case failed }
struct ArtistResult: Sendable { let artistName: String }
struct LookupResponse: Sendable { let results: [ArtistResult] }

let url = URL(string: "https://example.com/file")!
let logger = Logger()
struct Logger: Sendable { func warning(_ message: String) {} }

func lookup(id: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<LookupResponse, LookupError> { .success(LookupResponse(results: [])) }
func pickRock(_ artists: [ArtistResult]) -> Result<ArtistResult, LookupError> { .failure(.noRockArtist) }
func fetchMore(_ x: Int) -> Promise<Int, LookupError> { Promise(value: x) }
func show<T>(_ value: T) {}
func report<E: Error>(_ error: E) {}
func save(_ data: Data) {}
