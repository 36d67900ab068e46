// The names Docs/Troubleshooting.md's examples use without defining them.
import Foundation
import LazyPromise

enum RangeError: Error { case negative }
enum AppError: Error { case decoding(String), invalid }
struct Person: Decodable, Sendable {}
let promise = Promise<Int, RangeError>(value: 1)
let url = URL(string: "https://example.com/person.json")!
func download(_ url: URL) -> Promise<Data, AppError> { Promise(value: Data()) }
func validate(_ person: Person) throws(AppError) -> Person { person }
