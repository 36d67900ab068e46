// MARK: - Handling errors

extension Future {
  /// Transforms the error: `E -> F`. Values pass through unchanged.
  ///
  /// Eager: runs when the error arrives (now, if it already has), on the thread that delivered it.
  ///
  /// ```swift
  /// let lookup = download.mapError { LookupError.transport($0) }
  /// ```
  ///
  /// - Parameter transform: Turns the error into the new error type.
  /// - Returns: A future with the same value and the new error type.
  @inlinable
  public func mapError<F>(_ transform: @escaping @Sendable (E) -> F) -> Future<T, F> {
    _mapError(transform)
  }

  /// Continues after an error with more asynchronous work: `E -> Future<T, F>`, e.g. a fallback request.
  ///
  /// The function runs when the error arrives (now, if it already has); the returned future completes with
  /// this future's value, or with the result of the fallback future.
  ///
  /// ```swift
  /// let artist = primaryLookup.flatMapError { _ in mirrorLookup() }  // mirrorLookup() returns a Future
  /// ```
  ///
  /// - Parameter transform: Turns the error into the future that continues the chain.
  /// - Returns: A future of this future's value, or of the fallback future's result.
  @inlinable
  public func flatMapError<F>(_ transform: @escaping @Sendable (E) -> Future<T, F>) -> Future<T, F> {
    _flatMapError(transform)
  }

  /// Replaces an error with a value, giving a future that cannot fail.
  ///
  /// Runs when the error arrives (now, if it already has), on the thread that delivered it.
  ///
  /// ```swift
  /// let name: Future<String, Never> = lookup.map(\.artistName).recover { _ in "unknown" }
  /// ```
  ///
  /// - Parameter transform: Turns the error into a value.
  /// - Returns: A future that always succeeds.
  @inlinable
  public func recover(_ transform: @escaping @Sendable (E) -> T) -> Future<T, Never> {
    _forwarded { $0.recover(transform) }
  }

  /// Runs `body` when the result arrives, whatever it is, then passes it on unchanged.
  ///
  /// It runs once, on the thread that completes this future (now, if it already has).
  ///
  /// ```swift
  /// spinner.show()
  /// lookup.ensure { spinner.hide() }.observe(show)
  /// ```
  ///
  /// - Parameter body: Work to do on both outcomes.
  /// - Returns: A future with the same result, completed after `body` has run.
  @inlinable
  public func ensure(_ body: @escaping @Sendable () -> Void) -> Future<T, E> {
    _forwarded { $0.ensure(body) }
  }

  /// Observes the result when it arrives, then passes it on unchanged.
  ///
  /// ```swift
  /// lookup.always { result in log.debug("lookup finished: \(result)") }
  /// ```
  ///
  /// - Parameter body: Receives the result, whatever the outcome.
  /// - Returns: A future with the same result, completed after `body` has run.
  @inlinable
  public func always(_ body: @escaping @Sendable (Result<T, E>) -> Void) -> Future<T, E> {
    _forwarded { $0.always(body) }
  }
}

// MARK: - Futures that cannot fail

extension Future where E == Never {
  /// Gives a future that cannot fail any error type, so it chains with futures that can.
  ///
  /// ```swift
  /// let id: Future<String, LookupError> = Future<String, Never>(value: "909253")
  ///   .setFailureType(to: LookupError.self)
  /// ```
  ///
  /// - Parameter failureType: The error type to adopt.
  /// - Returns: A future with the same value, typed to fail with `F`.
  @inlinable
  public func setFailureType<F: Error>(to failureType: F.Type) -> Future<T, F> {
    _mapError { (_: Never) -> F in }  // uninhabited input: the body needs no statement
  }

  /// Deprecated where it can never run: a future whose error type is `Never` cannot fail, so there is no error to map.
  ///
  /// ```swift
  /// Future<Int, Never>(value: 1).setFailureType(to: MyError.self)  // instead
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "this future cannot fail, so the transform never runs; use setFailureType(to:)")
  public func mapError<F>(_ transform: @escaping @Sendable (E) -> F) -> Future<T, F> {
    setFailureType(to: F.self)
  }

  /// Deprecated where it can never run: a future whose error type is `Never` cannot fail, so there is nothing to
  /// recover from; it returns the same future.
  ///
  /// ```swift
  /// Future<Int, Never>(value: 1)  // already cannot fail
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "this future cannot fail, so there is nothing to recover from")
  public func recover(_ transform: @escaping @Sendable (E) -> T) -> Future<T, Never> {
    self
  }
}
