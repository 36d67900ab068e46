// MARK: - Unwrapping an optional value

extension Promise {
  /// Unwraps an optional value, or fails with `error` when it is `nil`.
  ///
  /// A value stage (contract 10.2): it runs on the thread that delivered the value; an upstream failure passes
  /// through unchanged.
  ///
  /// ```swift
  /// let first: Promise<Artist, LookupError> = lookup(id).map(\.results.first).unwrap(orFail: .noResult)
  /// ```
  ///
  /// - Parameter error: The error the promise fails with when the value is `nil`.
  /// - Returns: A promise of the wrapped value.
  @inlinable
  public func unwrap<Wrapped>(orFail error: E) -> Promise<Wrapped, E> where T == Wrapped? {
    Promise<Wrapped, E>(
      _stage: _valueStage(upstream: self, .result { value in value.map { .success($0) } ?? .failure(error) }))
  }

  /// Unwraps an optional value, or delivers `replacement` when it is `nil`.
  ///
  /// swift-nio's `unwrap(orReplace:)`. A value stage (contract 31.4): it runs on the thread that delivered the
  /// value; an upstream failure passes through unchanged. The same as `map { $0 ?? replacement }`, without a
  /// closure to type-check.
  ///
  /// ```swift
  /// let name: Promise<String, LookupError> = lookup(id).map(\.nickname).unwrap(orReplace: "unknown")
  /// ```
  ///
  /// - Parameter replacement: The value delivered instead of `nil`.
  /// - Returns: A promise of the wrapped value, or of `replacement`.
  @inlinable
  public func unwrap<Wrapped: Sendable>(orReplace replacement: Wrapped) -> Promise<Wrapped, E> where T == Wrapped? {
    Promise<Wrapped, E>(_stage: _valueStage(upstream: self, .value { value in value ?? replacement }))
  }

  /// Unwraps an optional value, or delivers what `replacement` returns when it is `nil`.
  ///
  /// swift-nio's `unwrap(orElse:)`. A value stage (contract 31.4): `replacement` runs only for a `nil`, once per
  /// run that reaches it, on the thread that delivered the `nil`; an upstream failure skips it.
  ///
  /// ```swift
  /// let artist: Promise<Artist, LookupError> = lookup(id).map(\.results.first).unwrap(orElse: { .placeholder })
  /// ```
  ///
  /// - Parameter replacement: Makes the value delivered instead of `nil`.
  /// - Returns: A promise of the wrapped value, or of what `replacement` returned.
  @inlinable
  public func unwrap<Wrapped>(orElse replacement: @escaping @Sendable () -> Wrapped) -> Promise<Wrapped, E>
  where T == Wrapped? {
    Promise<Wrapped, E>(_stage: _valueStage(upstream: self, .value { value in value ?? replacement() }))
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

  /// Unwraps an optional value, or delivers `replacement` when it is `nil`.
  ///
  /// swift-nio's `unwrap(orReplace:)`. Eager (contract 31.4): runs when the value arrives (now, if it already
  /// has); a failure passes through unchanged.
  ///
  /// ```swift
  /// let name: Future<String, LookupError> = profile.map(\.nickname).unwrap(orReplace: "unknown")
  /// ```
  ///
  /// - Parameter replacement: The value delivered instead of `nil`.
  /// - Returns: A future of the wrapped value, or of `replacement`.
  @inlinable
  public func unwrap<Wrapped: Sendable>(orReplace replacement: Wrapped) -> Future<Wrapped, E> where T == Wrapped? {
    map { value in value ?? replacement }
  }

  /// Unwraps an optional value, or delivers what `replacement` returns when it is `nil`.
  ///
  /// swift-nio's `unwrap(orElse:)`. Eager (contract 31.4): `replacement` runs only for a `nil`, once, on the
  /// thread that delivered it; a failure skips it.
  ///
  /// ```swift
  /// let artist: Future<Artist, LookupError> = results.map(\.first).unwrap(orElse: { .placeholder })
  /// ```
  ///
  /// - Parameter replacement: Makes the value delivered instead of `nil`.
  /// - Returns: A future of the wrapped value, or of what `replacement` returned.
  @inlinable
  public func unwrap<Wrapped>(orElse replacement: @escaping @Sendable () -> Wrapped) -> Future<Wrapped, E>
  where T == Wrapped? {
    map { value in value ?? replacement() }
  }
}
