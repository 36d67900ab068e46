// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// i22una: i22base (mirror plus tryMap) with the throwing then unavailable, as shipped (Then+Throwing.swift).
extension Promise {
  @available(*, unavailable, message: "use tryMap")
  public func then<U>(_ transform: @escaping @Sendable (T) throws -> U) -> Promise<U, E> { fatalError() }
}
