// MARK: - Handling errors

extension Promise {
  /// Transforms the error: `E -> F`. Values pass through unchanged.
  ///
  /// ```swift
  /// let lookup = fetch(url).mapError { LookupError.transport($0) }
  /// ```
  ///
  /// - Parameter transform: Turns the error into the new error type.
  /// - Returns: A promise with the same value and the new error type.
  @inlinable
  public func mapError<F>(_ transform: @escaping @Sendable (E) -> F) -> Promise<T, F> {
    Promise<T, F>(
      _stage: _HandlerStage(upstream: self) { result in
        switch result {
        case .success(let value): .result(.success(value))
        case .failure(let error): .result(.failure(transform(error)))
        }
      })
  }

  /// Continues after an error with more asynchronous work: `E -> Promise<T, F>`, e.g. a fallback request.
  ///
  /// ```swift
  /// let artist = primary.lookup(id).flatMapError { _ in mirror.lookup(id) }
  /// ```
  ///
  /// - Parameter transform: Turns the error into the promise that continues the chain.
  /// - Returns: A promise whose result is this one's value, or the fallback promise's result.
  @inlinable
  public func flatMapError<F>(_ transform: @escaping @Sendable (E) -> Promise<T, F>) -> Promise<T, F> {
    Promise<T, F>(
      _stage: _HandlerStage(upstream: self) { result in
        switch result {
        case .success(let value): .result(.success(value))
        case .failure(let error): .promise(transform(error))
        }
      })
  }

  /// Replaces an error with a value, giving a promise that cannot fail.
  ///
  /// ```swift
  /// let name: Promise<String, Never> = lookup(id).map(\.artistName).recover { _ in "unknown" }
  /// ```
  ///
  /// - Parameter transform: Turns the error into a value.
  /// - Returns: A promise that always succeeds.
  @inlinable
  public func recover(_ transform: @escaping @Sendable (E) -> T) -> Promise<T, Never> {
    Promise<T, Never>(
      _stage: _HandlerStage(upstream: self) { result in
        switch result {
        case .success(let value): .result(.success(value))
        case .failure(let error): .result(.success(transform(error)))
        }
      })
  }

  /// Runs `body` when this stage is reached, whatever the outcome, then passes the result on unchanged.
  ///
  /// It runs on the thread that delivered the result (for cleanup such as hiding a spinner).
  ///
  /// ```swift
  /// spinner.show()
  /// lookup(id).ensure { spinner.hide() }.run(some: show, none: report)
  /// ```
  ///
  /// - Parameter body: Work to do on both outcomes.
  /// - Returns: A promise with the same result.
  @inlinable
  public func ensure(_ body: @escaping @Sendable () -> Void) -> Promise<T, E> {
    Promise<T, E>(
      _stage: _HandlerStage(upstream: self) { result in
        body()
        return .result(result)
      })
  }

  /// Observes the result when this stage is reached, then passes it on unchanged.
  ///
  /// ```swift
  /// lookup(id).always { result in log.debug("lookup finished: \(result)") }
  /// ```
  ///
  /// - Parameter body: Receives the result, whatever the outcome.
  /// - Returns: A promise with the same result.
  @inlinable
  public func always(_ body: @escaping @Sendable (Result<T, E>) -> Void) -> Promise<T, E> {
    Promise<T, E>(
      _stage: _HandlerStage(upstream: self) { result in
        body(result)
        return .result(result)
      })
  }
}

// MARK: - Promises that cannot fail

extension Promise where E == Never {
  /// Gives a promise that cannot fail any error type, so it chains with promises that can.
  ///
  /// ```swift
  /// let id: Promise<String, LookupError> = Promise<String, Never>(value: "909253")
  ///   .setFailureType(to: LookupError.self)
  /// ```
  ///
  /// - Parameter failureType: The error type to adopt.
  /// - Returns: The same promise, typed to fail with `F`.
  @inlinable
  public func setFailureType<F: Error>(to failureType: F.Type) -> Promise<T, F> {
    Promise<T, F>(
      _stage: _HandlerStage(upstream: self) { result in
        switch result {
        case .success(let value): .result(.success(value))
        }
      })
  }

  /// Deprecated where it can never run: a promise whose error type is `Never` cannot fail, so there is no error to map.
  ///
  /// ```swift
  /// Promise<Int, Never>(value: 1).setFailureType(to: MyError.self)  // instead
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "this promise cannot fail, so the transform never runs; use setFailureType(to:)")
  public func mapError<F>(_ transform: @escaping @Sendable (E) -> F) -> Promise<T, F> {
    setFailureType(to: F.self)
  }

  /// Deprecated where it can never run: a promise whose error type is `Never` cannot fail, so there is nothing to
  /// recover from; it returns the same promise.
  ///
  /// ```swift
  /// Promise<Int, Never>(value: 1)  // already cannot fail
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "this promise cannot fail, so there is nothing to recover from")
  public func recover(_ transform: @escaping @Sendable (E) -> T) -> Promise<T, Never> {
    self
  }
}
