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

  /// Chains `transform` after `upstream`, continuing with the step it returns. Called by `Future.then`.
  static func _chain<T>(
    after upstream: Future<T, Failure>, _ transform: @escaping @Sendable (T) -> Self
  ) -> Future<Success, Failure>
}

extension Result: FutureThenStep {
  /// Chains a `T -> Result` function: continues with the value, or fails with the error.
  @inlinable
  public static func _chain<T>(
    after upstream: Future<T, Failure>, _ transform: @escaping @Sendable (T) -> Result<Success, Failure>
  ) -> Future<Success, Failure> {
    upstream._then(.result(transform))
  }
}

extension Future: FutureThenStep {
  /// The value the future completes with.
  public typealias Success = T
  /// The error the future fails with.
  public typealias Failure = E

  /// Chains a `T -> Future` function: continues with the result of the future it returns.
  @inlinable
  public static func _chain<S>(
    after upstream: Future<S, E>, _ transform: @escaping @Sendable (S) -> Future<T, E>
  ) -> Future<T, E> {
    upstream._then(.future(transform))
  }
}
