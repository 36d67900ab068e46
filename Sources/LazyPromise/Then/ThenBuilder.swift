/// Lets an inline `then { ... }` closure produce a plain value, a `Result<U, E>` or a `Promise<U, E>`.
///
/// You never name this type: `then` applies it to every closure written without `return`. The closure's body is
/// type-checked on its own, apart from the rest of the chain, so in a synchronous function a chain of inline
/// closures type-checks in time linear in its length (inside an `async` function, see `Docs/Troubleshooting.md`). What the body produces decides what the stage does:
///
/// | the body produces | the stage |
/// | --- | --- |
/// | a value `U` | continues with it, like `map` |
/// | a `Result<U, E>` | continues with its value or fails with its error, like `attemptMap` |
/// | a `Promise<U, E>` | runs it and continues with its result, like `flatMap` |
///
/// A plain value or a `Result` is stored inline in the promise the builder makes, so these stages allocate
/// nothing more than `map` does.
///
/// ```swift
/// Promise<Int, LookupError>(value: 2)
///   .then { $0 * 10 }                                        // a value
///   .then { $0 > 5 ? .success($0 + 1) : .failure(.noResult) }  // a Result
///   .then { x in fetchMore(x) }                              // a Promise
///   .then { x in
///     let doubled = x * 2
///     if doubled > 100 { doubled } else { -doubled }         // branches, each a value
///   }
/// ```
///
/// The body is one expression, an `if`/`else` or a `switch` whose branches are each one expression, and any
/// number of declarations (`let`) before it. A closure with `return` statements is not built: it goes to the
/// `then` overload its result type matches, and is best written with that type (`x -> Int in`) or as
/// `map`/`attemptMap`/`flatMap` (see `Docs/Troubleshooting.md`).
@resultBuilder
public enum ThenBuilder<E: Error> {
  /// A plain value continues the chain.
  @inlinable
  public static func buildExpression<U>(_ value: U) -> Promise<U, E> {
    Promise(value: value)
  }

  /// A `Result` continues with its value or ends the chain with its error.
  @inlinable
  public static func buildExpression<U>(_ result: Result<U, E>) -> Result<U, E> {
    result
  }

  /// A failure on its own (`.failure(.notFound)`): its value type comes from the closure's result type, when
  /// written, through ``buildFinalResult(_:)-(Result<Never,E>)``.
  @inlinable
  public static func buildExpression(_ failure: Result<Never, E>) -> Result<Never, E> {
    failure
  }

  /// A promise runs, and its result continues the chain.
  @inlinable
  public static func buildExpression<U>(_ promise: Promise<U, E>) -> Promise<U, E> {
    promise
  }

  /// An empty closure produces `Void`.
  @inlinable
  public static func buildBlock() -> Promise<Void, E> {
    Promise(value: ())
  }

  /// The body's one expression (declarations such as `let` may come before it).
  @inlinable
  public static func buildBlock<Step: ThenStep>(_ step: Step) -> Step {
    step
  }

  /// What the closure produces: its one step.
  @inlinable
  public static func buildFinalResult<Step: ThenStep>(_ step: Step) -> Step {
    step
  }

  /// What a closure whose only expression is a failure produces, when its result type is written
  /// (`{ _ -> Result<Int, E> in .failure(.notFound) }`): the failure, typed.
  @inlinable
  public static func buildFinalResult<U>(_ failure: Result<Never, E>) -> Result<U, E> {
    switch failure {
    case .failure(let error): .failure(error)
    }
  }

  /// The `if` branch of an `if`/`else`, or a `case` of a `switch`.
  @inlinable
  public static func buildEither<Step: ThenStep>(first step: Step) -> Step {
    step
  }

  /// The `else` branch of an `if`/`else`, or a `case` of a `switch`.
  @inlinable
  public static func buildEither<Step: ThenStep>(second step: Step) -> Step {
    step
  }
}
