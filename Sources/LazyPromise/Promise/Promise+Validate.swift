// MARK: - Checking a value

extension Promise {
  /// Keeps the value if `predicate` holds for it, and otherwise fails with `error`.
  ///
  /// A value stage (contract 10.1): the predicate runs once per run, on the thread that delivered the value, and
  /// not at all when the chain has already failed or the run was cancelled. A failure it makes skips every later
  /// value stage, like any other failure.
  ///
  /// ```swift
  /// lookup(id).map(\.results).validate({ !$0.isEmpty }, else: .noResult)
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: Says whether the value is acceptable.
  ///   - error: The error the promise fails with when it is not.
  /// - Returns: A promise of the same value, or of `error`.
  @inlinable
  public func validate(_ predicate: @escaping @Sendable (T) -> Bool, else error: E) -> Promise<T, E> {
    Promise<T, E>(
      _stage: _valueStage(upstream: self, .result { value in predicate(value) ? .success(value) : .failure(error) }))
  }
}

extension Future {
  /// Keeps the value if `predicate` holds for it, and otherwise fails with `error`.
  ///
  /// Eager (contract 19.7): the predicate runs once, when the value arrives (now, if it already has), on the
  /// thread that delivered it; an error passes through without running it.
  ///
  /// ```swift
  /// let rock = lookup.validate({ $0.genre == "Rock" }, else: .noResult)
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: Says whether the value is acceptable.
  ///   - error: The error the future fails with when it is not.
  /// - Returns: A future of the same value, or of `error`.
  @inlinable
  public func validate(_ predicate: @escaping @Sendable (T) -> Bool, else error: E) -> Future<T, E> {
    attemptMap { value in predicate(value) ? .success(value) : .failure(error) }
  }
}
