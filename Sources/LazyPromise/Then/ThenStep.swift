/// What an inline `then` closure or a `then` function may produce besides a plain value: a `Result` or a
/// `Promise` of the chain's error type. The library's own types conform; you do not conform types of your own.
///
/// `then` takes any function returning a `ThenStep` through one declaration, so a function reference of either
/// shape picks its overload at once, without the type checker weighing alternatives:
///
/// ```swift
/// func decode(_ data: Data) -> Result<Response, LookupError> { ... }  // a Result: continues or fails
/// func fetchMore(_ id: Int) -> Promise<[Album], LookupError> { ... }  // a Promise: runs, then continues
///
/// lookup(id: "909253").then(decode).then { $0.id }.then(fetchMore)
/// ```
public protocol ThenStep<Success, Failure>: SendableMetatype {
  /// The value the chain continues with.
  associatedtype Success
  /// The error that ends the chain; a step must fail with the chain's own error type.
  associatedtype Failure: Error

  /// Continues a run of a chain with this step's result: `completion` receives it exactly once, unless `handle`
  /// is cancelled first. Library machinery: call `then`, not this.
  ///
  /// ```swift
  /// let next = Promise<Int, Never>(value: 1).then { Result<Int, Never>.success($0 + 1) }  // calls it for you
  /// ```
  func _continue(_ handle: RunHandle, to completion: @escaping @Sendable (Result<Success, Failure>) -> Void, hop: Bool)

  /// The step's result when it is known without running anything (a `Result`, or a promise made from a known
  /// result), so that a run can pass it on at once. Library machinery: call `then`, not this.
  ///
  /// ```swift
  /// let known = Promise<Int, Never>(value: 1)._result  // success(1)
  /// ```
  var _result: Result<Success, Failure>? { get }
}

extension Result: ThenStep {
  /// Delivers this result to the run's next stage. Library machinery: `then` calls it.
  ///
  /// ```swift
  /// let next = Promise<Int, Never>(value: 1).then { Result<Int, Never>.success($0 + 1) }  // calls it for you
  /// ```
  @inlinable
  public func _continue(
    _ handle: RunHandle, to completion: @escaping @Sendable (Result<Success, Failure>) -> Void, hop: Bool
  ) {
    _deliver(self, to: completion, hop: hop)
  }

  /// This result. Library machinery: `then` reads it.
  ///
  /// ```swift
  /// let known = Result<Int, Never>.success(1)._result  // success(1)
  /// ```
  @inlinable
  public var _result: Result<Success, Failure>? { self }
}

extension Promise: ThenStep {
  /// The value a run delivers: `T`.
  public typealias Success = T
  /// The error a run fails with: `E`.
  public typealias Failure = E

  /// The result every run delivers, for a promise made from a known result (`Promise(value:)`,
  /// `Promise(result:)`, `Promise(error:)`); otherwise `nil`. Library machinery: `then` reads it.
  ///
  /// ```swift
  /// let known = Promise<Int, Never>(value: 1)._result  // success(1)
  /// ```
  @inlinable
  public var _result: Result<T, E>? {
    if case .result(let result) = _source { return result }
    return nil
  }
}
