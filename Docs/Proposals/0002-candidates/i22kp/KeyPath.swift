// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// i22kp: i22base (mirror plus tryMap) with a then overload for key paths, not disfavored.
extension Promise {
  @available(*, deprecated, message: "kp")
  public func then<U>(_ keyPath: KeyPath<T, U>) -> Promise<U, E> { fatalError() }
}
