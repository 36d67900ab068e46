// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// Recommended design: the three `then` overloads of the issue. The Promise-returning one carries a
// result builder, so inline closures of every shape go to it and are type-checked on their own; the
// value and Result overloads are disfavoured and serve function references and closures with `return`.

/// Lets an inline `then { ... }` closure produce a value, a `Result<U, E>` or a `Promise<U, E>`.
@resultBuilder
public enum ThenBuilder<E: Error> {
  @inlinable
  public static func buildExpression<U>(_ value: U) -> Promise<U, E> { Promise(value: value) }

  @inlinable
  public static func buildExpression<U>(_ result: Result<U, E>) -> Promise<U, E> { Promise(result: result) }

  @inlinable
  public static func buildExpression<U>(_ promise: Promise<U, E>) -> Promise<U, E> { promise }

  @inlinable
  public static func buildBlock<U>(_ promise: Promise<U, E>) -> Promise<U, E> { promise }

  @inlinable
  public static func buildEither<U>(first promise: Promise<U, E>) -> Promise<U, E> { promise }

  @inlinable
  public static func buildEither<U>(second promise: Promise<U, E>) -> Promise<U, E> { promise }
}

extension Promise {
  @inlinable
  public init(result: Result<T, E>) {
    nonisolated(unsafe) let result = result
    self.init { $0(result) }
  }

  // MARK: then

  @inlinable
  public func then<U>(@ThenBuilder<E> _ transform: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> {
    _flatMap(transform)
  }

  @inlinable @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(transform) }

  @inlinable @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> {
    _flatMapResult(transform)
  }

  // MARK: map, flatMap, attemptMap, tryMap

  @inlinable
  public func map<U>(_ transform: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(transform) }

  @inlinable
  public func flatMap<U>(_ transform: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> { _flatMap(transform) }

  @inlinable
  public func attemptMap<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> {
    _flatMapResult(transform)
  }

  @inlinable
  public func tryMap<U>(_ transform: @escaping @Sendable (T) throws(E) -> U) -> Promise<U, E> {
    _flatMapResult { value in Result { () throws(E) -> U in try transform(value) } }
  }
}
