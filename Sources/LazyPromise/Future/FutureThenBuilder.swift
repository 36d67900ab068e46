/// Lets an inline `Future.then { ... }` closure produce a plain value, a `Result<U, E>` or a `Future<U, E>`.
///
/// The twin of ``ThenBuilder`` for the eager ``Future``: you never name it; `then` applies it to every closure
/// written without `return`, and the closure's body is type-checked on its own, apart from the rest of the chain.
///
/// | the body produces | the stage |
/// | --- | --- |
/// | a value `U` | continues with it, like `map` |
/// | a `Result<U, E>` | continues with its value or fails with its error, like `attemptMap` |
/// | a `Future<U, E>` | continues with its result, like `flatMap` |
///
/// A plain value becomes a `Result`, so a value stage allocates nothing more than `map` does.
///
/// ```swift
/// Future<Int, LookupError>(value: 2)
///   .then { $0 * 10 }                                          // a value
///   .then { $0 > 5 ? .success($0 + 1) : .failure(.noResult) }  // a Result
///   .then { x in fetchMore(x) }                                // a Future
/// ```
@resultBuilder
public enum FutureThenBuilder<E: Error> {
  /// A plain value continues the chain.
  @inlinable
  public static func buildExpression<U>(_ value: U) -> Result<U, E> {
    .success(value)
  }

  /// A `Result` continues with its value or ends the chain with its error.
  @inlinable
  public static func buildExpression<U>(_ result: Result<U, E>) -> Result<U, E> {
    result
  }

  /// A bare `.failure(error)` whose value type the closure's result type gives.
  @inlinable
  public static func buildExpression(_ failure: Result<Never, E>) -> Result<Never, E> {
    failure
  }

  /// A `Future` continues with its result.
  @inlinable
  public static func buildExpression<U>(_ future: Future<U, E>) -> Future<U, E> {
    future
  }

  /// An empty body continues with `()`.
  @inlinable
  public static func buildBlock() -> Result<Void, E> {
    .success(())
  }

  /// The body's one expression is the step.
  @inlinable
  public static func buildBlock<Step: FutureThenStep>(_ step: Step) -> Step {
    step
  }

  /// The step the closure returns.
  @inlinable
  public static func buildFinalResult<Step: FutureThenStep>(_ step: Step) -> Step {
    step
  }

  /// A bare `.failure(error)` as a `Result` of the value type the closure's result type names.
  @inlinable
  public static func buildFinalResult<U>(_ failure: Result<Never, E>) -> Result<U, E> {
    switch failure {
    case .failure(let error): .failure(error)
    }
  }

  /// The `if` branch of an `if`/`else` whose branches produce the same kind of step.
  @inlinable
  public static func buildEither<Step: FutureThenStep>(first step: Step) -> Step {
    step
  }

  /// The `else` branch of an `if`/`else` whose branches produce the same kind of step.
  @inlinable
  public static func buildEither<Step: FutureThenStep>(second step: Step) -> Step {
    step
  }
}
