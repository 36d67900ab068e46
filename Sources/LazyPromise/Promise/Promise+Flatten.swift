// MARK: - Flattening a nested promise

extension Promise {
  /// Runs the inner promise this promise delivers, and delivers its result.
  ///
  /// A value stage (contract 10.5): the inner promise runs on the thread that delivered it, once per run, and
  /// not at all when the outer promise fails; cancelling the run cancels the inner run. Flattening joins two
  /// runs, so it goes through the trampoline like `flatMap` (contract 6).
  ///
  /// ```swift
  /// let nested: Promise<Promise<Data, LookupError>, LookupError> = pickMirror().map(\.request)
  /// let data: Promise<Data, LookupError> = nested.flatten()
  /// ```
  ///
  /// - Returns: A promise of the inner promise's result.
  @inlinable
  public func flatten<U>() -> Promise<U, E> where T == Promise<U, E> {
    Promise<U, E>(_stage: _valueStage(upstream: self, .promise { inner in inner }))
  }
}

extension Future {
  /// Completes with the result of the inner future this future delivers.
  ///
  /// ```swift
  /// let data: Future<Data, LookupError> = nested.flatten()  // Future<Future<Data, LookupError>, LookupError>
  /// ```
  ///
  /// - Returns: A future of the inner future's result.
  @inlinable
  public func flatten<U>() -> Future<U, E> where T == Future<U, E> {
    flatMap { inner in inner }
  }
}
