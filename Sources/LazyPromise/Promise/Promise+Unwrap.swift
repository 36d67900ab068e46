// MARK: - Unwrapping an optional value

extension Promise {
  /// Unwraps an optional value, or fails with `error` when it is `nil`.
  ///
  /// A value stage (contract 10.2): it runs on the thread that delivered the value; an upstream failure passes
  /// through unchanged.
  ///
  /// ```swift
  /// let first: Promise<Artist, LookupError> = lookup(id).then(\.results.first).unwrap(orFail: .noResult)
  /// ```
  ///
  /// - Parameter error: The error the promise fails with when the value is `nil`.
  /// - Returns: A promise of the wrapped value.
  @inlinable
  public func unwrap<Wrapped>(orFail error: E) -> Promise<Wrapped, E> where T == Wrapped? {
    Promise<Wrapped, E>(
      _stage: _ValueStage(upstream: self, .result { value in value.map { .success($0) } ?? .failure(error) }))
  }
}

extension Future {
  /// Unwraps an optional value, or fails with `error` when it is `nil`.
  ///
  /// Eager (contract 19.7): runs when the value arrives (now, if it already has).
  ///
  /// ```swift
  /// let first: Future<Artist, LookupError> = results.map(\.first).unwrap(orFail: .noResult)
  /// ```
  ///
  /// - Parameter error: The error the future fails with when the value is `nil`.
  /// - Returns: A future of the wrapped value.
  @inlinable
  public func unwrap<Wrapped>(orFail error: E) -> Future<Wrapped, E> where T == Wrapped? {
    attemptMap { value in value.map { .success($0) } ?? .failure(error) }
  }
}
