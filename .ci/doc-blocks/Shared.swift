// Names every page's examples may use, compiled into each page's module beside its own prelude.

/// A callback API: `get` answers once, and its request can be cancelled.
struct Client: Sendable {
  struct Request: Sendable { func cancel() {} }
  @discardableResult
  func get<T, E>(_ path: Any, completion: @escaping @Sendable (Result<T, E>) -> Void) -> Request { Request() }
}
let client = Client()
