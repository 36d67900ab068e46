/// What a `Future`'s `then` closure can produce besides a plain value: a `Result<U, E>` or a `Future<U, E>`.
///
/// You do not conform your own types: `Result` and `Future` conform, so that one `then` declaration serves
/// `Result`- and `Future`-returning closures and functions, and the type checker has one overload less to try per
/// stage.
///
/// ```swift
/// func parse(_ text: String) -> Result<Int, ParseError> { ... }   // a Result
/// func fetch(_ id: Int) -> Future<User, ParseError> { ... }       // a Future
/// let user = Future<String, ParseError>(value: "42").then(parse).then(fetch)
/// ```
public protocol FutureThenStep<Success, Failure>: SendableMetatype {
  /// The value the chain continues with.
  associatedtype Success
  /// The error the chain fails with.
  associatedtype Failure: Error

  /// Completes `target` with this step's result, now or when it arrives; returns the observers that became
  /// ready, for the caller to run. Called by `Future.then`'s stage.
  func _settle(into target: Future<Success, Failure>) -> _FutureNodeList

  /// This step as a future: itself, or a completed one. Called by `Future.then` on a completed future.
  func _asFuture() -> Future<Success, Failure>

  /// Whether a function producing this step can be a loop written as recursion (a `Future` can: its function
  /// may call back into `then`), so that `then` on a completed future goes through the trampoline for it.
  static var _mayRecurse: Bool { get }
}

extension Result: FutureThenStep {
  /// Completes `target` with this result.
  @inlinable
  public func _settle(into target: Future<Success, Failure>) -> _FutureNodeList {
    target._settle(self)
  }

  /// A future completed with this result.
  @inlinable
  public func _asFuture() -> Future<Success, Failure> {
    Future(result: self)
  }

  /// A `Result` is a value: its function runs at once.
  @inlinable
  public static var _mayRecurse: Bool { false }
}

extension Future: FutureThenStep {
  /// The value the future completes with.
  public typealias Success = T
  /// The error the future fails with.
  public typealias Failure = E

  /// Completes `target` with this future's result, now or once it arrives.
  @inlinable
  public func _settle(into target: Future<T, E>) -> _FutureNodeList {
    _forward(to: target)
  }

  /// This future.
  @inlinable
  public func _asFuture() -> Future<T, E> {
    self
  }

  /// A function returning a future may be a loop written as recursion.
  @inlinable
  public static var _mayRecurse: Bool { true }
}
