// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// i22base: the shipped declarations (candidates/mirror, named in BASE) plus tryMap: issue 22's baseline.
extension Promise {
  public func tryMap<U>(_ transform: @escaping @Sendable (T) throws(E) -> U) -> Promise<U, E> {
    _flatMapResult { x in Result { () throws(E) -> U in try transform(x) } }
  }
}
