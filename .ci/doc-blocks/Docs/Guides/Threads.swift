// The names Docs/Guides/Threads.md's examples use without defining them.
import Dispatch
import Foundation
import LazyPromise

enum LookupError: Error { case noResult }
struct Artist: Sendable { let artistName: String }
struct Digest: Sendable {}
func lookup(id: String) -> Promise<Data, LookupError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<Artist, LookupError> { .success(Artist(artistName: "Jack Johnson")) }
func sha256(_ data: Data) -> Digest { Digest() }
let hugeFile = Data()
func show<T>(_ value: T) {}
func showError<E: Error>(_ error: E) {}
final class Label: @unchecked Sendable { var text = "" }
let label = Label()

/// An event loop of another library: runs work, and runs work later.
final class MyEventLoop: Sendable {
  struct Scheduled: Sendable { func cancel() {} }
  func execute(_ work: @escaping @Sendable () -> Void) {}
  func schedule(in delay: Duration, _ work: @escaping @Sendable () -> Void) -> Scheduled { Scheduled() }
}
