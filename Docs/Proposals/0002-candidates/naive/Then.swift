// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// C0 naive: three plain overloads, map and flatMap.
extension Promise {
  @inlinable
  public func then<U>(_ f: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(f) }
  @inlinable
  public func then<U>(_ f: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> { _flatMapResult(f) }
  @inlinable
  public func then<U>(_ f: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> { _flatMap(f) }
  @inlinable
  public func map<U>(_ f: @escaping @Sendable (T) -> U) -> Promise<U, E> { _map(f) }
  @inlinable
  public func flatMap<U>(_ f: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> { _flatMap(f) }
}
