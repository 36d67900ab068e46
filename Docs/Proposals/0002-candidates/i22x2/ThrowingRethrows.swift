// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// i22x2: i22base (mirror plus tryMap) with a third, disfavored, deprecated throwing then with rethrows (not adopted: 0002 section 9).
extension Promise {
  @_disfavoredOverload
  @available(*, deprecated, message: "use tryMap")
  public func then<U>(_ transform: @escaping @Sendable (T) throws -> U) rethrows -> Promise<U, E> { fatalError() }
}
