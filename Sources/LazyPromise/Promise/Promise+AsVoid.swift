// MARK: - Dropping the value

extension Promise {
  /// Drops the value: a promise that says only whether the work succeeded.
  ///
  /// A value stage (contract 10.4): the error passes through unchanged.
  ///
  /// ```swift
  /// let saved: Promise<Void, SaveError> = store.save(photo).asVoid()
  /// ```
  ///
  /// - Returns: A promise of `()` or of this promise's error.
  @inlinable
  public func asVoid() -> Promise<Void, E> {
    Promise<Void, E>(_stage: _valueStage(upstream: self, .value { _ in () }))
  }
}

extension Future {
  /// Drops the value: a future that says only whether the work succeeded.
  ///
  /// ```swift
  /// let saved: Future<Void, SaveError> = upload.asVoid()
  /// ```
  ///
  /// - Returns: A future of `()` or of this future's error.
  @inlinable
  public func asVoid() -> Future<Void, E> {
    map { _ in () }
  }
}
