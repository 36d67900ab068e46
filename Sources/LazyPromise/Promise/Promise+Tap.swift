// MARK: - Side effects on the value

extension Promise {
  /// Runs `body` with the value, then passes the value on unchanged.
  ///
  /// A value stage (contract 10.3): `body` runs once per run that succeeds this far, on the thread that
  /// delivered the value; a failure skips it. To see both outcomes use ``always(_:)``: it is the result-side tap.
  ///
  /// ```swift
  /// lookup(id).tap { artist in cache.store(artist) }.run(some: show, none: report)
  /// ```
  ///
  /// - Parameter body: Receives the value.
  /// - Returns: A promise with the same result.
  @inlinable
  public func tap(_ body: @escaping @Sendable (T) -> Void) -> Promise<T, E> {
    Promise<T, E>(
      _stage: _valueStage(
        upstream: self,
        .value { value in
          body(value)
          return value
        }))
  }
}

extension Future {
  /// Runs `body` with the value, then passes the value on unchanged.
  ///
  /// Eager (contract 19.7): `body` runs once, when the value arrives (now, if it already has); a failure skips
  /// it. ``always(_:)`` is the result-side tap.
  ///
  /// ```swift
  /// lookup.tap { artist in cache.store(artist) }.observe(show)
  /// ```
  ///
  /// - Parameter body: Receives the value.
  /// - Returns: A future with the same result, completed after `body` has run.
  @inlinable
  public func tap(_ body: @escaping @Sendable (T) -> Void) -> Future<T, E> {
    map { value in
      body(value)
      return value
    }
  }
}
