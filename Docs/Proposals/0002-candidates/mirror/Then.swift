// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// mirror: the `then` declarations as the library ships them (the ThenStep builder overload, the disfavored
// `T -> U` overload, the unavailable `T -> Result` one) over the prototype core, so that variants of them can be
// measured without building the package.
public protocol ThenStep<Success, Failure> {
  associatedtype Success
  associatedtype Failure: Error
}
extension Result: ThenStep {}
extension Promise: ThenStep {
  public typealias Success = T
  public typealias Failure = E
}
@resultBuilder
public enum ThenBuilder<E: Error> {
  public static func buildExpression<U>(_ value: U) -> Promise<U, E> { Promise(value: value) }
  public static func buildExpression<U>(_ result: Result<U, E>) -> Result<U, E> { result }
  public static func buildExpression(_ failure: Result<Never, E>) -> Result<Never, E> { failure }
  public static func buildExpression<U>(_ promise: Promise<U, E>) -> Promise<U, E> { promise }
  public static func buildBlock() -> Promise<Void, E> { Promise(value: ()) }
  public static func buildBlock<Step: ThenStep>(_ step: Step) -> Step { step }
  public static func buildFinalResult<Step: ThenStep>(_ step: Step) -> Step { step }
  public static func buildFinalResult<U>(_ failure: Result<Never, E>) -> Result<U, E> {
    switch failure { case .failure(let error): .failure(error) }
  }
  public static func buildEither<Step: ThenStep>(first step: Step) -> Step { step }
  public static func buildEither<Step: ThenStep>(second step: Step) -> Step { step }
}
extension Promise {
  public func then<Step: ThenStep>(
    @ThenBuilder<E> _ transform: @escaping @Sendable (T) -> Step
  ) -> Promise<Step.Success, E> where Step.Failure == E { fatalError() }
  @_disfavoredOverload
  public func then<U>(_ transform: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(transform) }
  @available(*, unavailable, message: "x")
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> { fatalError() }
  public func map<U>(_ transform: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(transform) }
  public func attemptMap<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> { _flatMapResult(transform) }
  public func flatMap<U>(_ transform: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> { _flatMap(transform) }
}
