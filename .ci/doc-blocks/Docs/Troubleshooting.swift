// The names Docs/Troubleshooting.md's examples use without defining them.
import Foundation
import LazyPromise

enum RangeError: Error { case negative }
enum AppError: Error {
  case decoding(String), invalid, negative
  case other(OtherError)
  case tooBig(Int)
}
struct Person: Decodable, Sendable {}
let promise = Promise<Int, RangeError>(value: 1)
let url = URL(string: "https://example.com/person.json")!
func download(_ url: URL) -> Promise<Data, AppError> { Promise(value: Data()) }
func validate(_ person: Person) throws(AppError) -> Person { person }
enum OtherError: Error { case unavailable }
struct Item: Sendable { let price: Int }
func fetchTitle(_ id: Int) -> Promise<String, OtherError> { Promise(value: "Jack Johnson") }
func parse(_ text: String) -> Result<Int, AppError> { Int(text).map { .success($0) } ?? .failure(.invalid) }
func fetch(_ count: Int) -> Promise<[Item], AppError> { Promise(value: []) }
let input = "21"
func checkSize(_ size: Int) throws(AppError) -> Int {
  if size > 100 { throw .tooBig(size) }
  return size
}
