// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// rec-step: an extra inline-closure `then` whose builder produces a ThenStep (no Promise allocated for plain
// values), plus the three shape overloads, disfavoured (four `then` overloads in all).

/// What a `then` closure produced: a value, a `Result`, or a `Promise` to wait for.
///
/// You never build one yourself: ``ThenBuilder`` wraps the closure's single expression in it.
public struct ThenStep<U, E: Error> {
  @usableFromInline
  enum Kind {
    case value(U)
    case result(Result<U, E>)
    case promise(Promise<U, E>)
  }

  @usableFromInline let kind: Kind

  @inlinable init(_ kind: Kind) { self.kind = kind }
}

/// Lets `then { ... }` accept a closure whose single expression is a value, a `Result<U, E>` or a
/// `Promise<U, E>`, and type-checks that expression on its own, apart from the rest of the chain.
@resultBuilder
public enum ThenBuilder<E: Error> {
  @inlinable
  public static func buildExpression<U>(_ value: U) -> ThenStep<U, E> { ThenStep(.value(value)) }

  @inlinable
  public static func buildExpression<U>(_ result: Result<U, E>) -> ThenStep<U, E> { ThenStep(.result(result)) }

  @inlinable
  public static func buildExpression<U>(_ promise: Promise<U, E>) -> ThenStep<U, E> { ThenStep(.promise(promise)) }

  @inlinable
  public static func buildBlock<U>(_ step: ThenStep<U, E>) -> ThenStep<U, E> { step }

  @inlinable
  public static func buildEither<U>(first step: ThenStep<U, E>) -> ThenStep<U, E> { step }

  @inlinable
  public static func buildEither<U>(second step: ThenStep<U, E>) -> ThenStep<U, E> { step }
}

extension Promise {
  // MARK: then — inline closures

  /// Runs `body` on the value and continues with what it produced: a value, a `Result` or a `Promise`.
  @inlinable
  public func then<U>(@ThenBuilder<E> _ body: @escaping @Sendable (T) -> ThenStep<U, E>) -> Promise<U, E> {
    let task = self.task
    return Promise<U, E> { completion in
      task { result in
        switch result {
        case .failure(let error): completion(.failure(error))
        case .success(let value):
          switch body(value).kind {
          case .value(let next): completion(.success(next))
          case .result(let next): completion(next)
          case .promise(let next): next.task(completion)
          }
        }
      }
    }
  }

  // MARK: then — function references and closures with `return`

  @inlinable @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(transform) }

  @inlinable @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> {
    _flatMapResult(transform)
  }

  @inlinable @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> { _flatMap(transform) }

  // MARK: map, flatMap, attemptMap, tryMap — one shape each

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
