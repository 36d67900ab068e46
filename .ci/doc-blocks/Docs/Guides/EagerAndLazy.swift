// The names Docs/Guides/EagerAndLazy.md's examples use without defining them.
import Foundation
import LazyPromise

enum LoadError: Error { case failed }
struct Config: Sendable {}
let configURL = URL(string: "https://example.com/config.json")!
func load(_ completion: @escaping @Sendable (Result<Config, LoadError>) -> Void) { completion(.success(Config())) }
func download(_ url: URL) -> Promise<Data, LoadError> { Promise(value: Data()) }
func decode(_ data: Data) -> Result<Config, LoadError> { .success(Config()) }
