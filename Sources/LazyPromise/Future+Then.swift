// MARK: - Chaining values

extension Future {
  /// Chains a function of the value: `T -> U`. Skipped when this future fails.
  ///
  /// Eager: if this future is completed the function runs now, on the calling thread; otherwise it runs once, on
  /// the thread that completes this future — whether or not anyone observes the returned future.
  ///
  /// ```swift
  /// let count = Future<[Int], Never>(value: [1, 2, 3]).then(\.count)
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one.
  /// - Returns: A future of the transformed value, with the same error type.
  @inlinable
  public func then<U>(_ transform: @escaping @Sendable (T) -> U) -> Future<U, E> {
    _then(.value(transform))
  }

  /// Chains a function that can fail: `T -> Result<U, E>`. Skipped when this future fails.
  ///
  /// Runs when the value arrives (now, if it already has), on the thread that delivered it.
  ///
  /// ```swift
  /// func parse(_ text: String) -> Result<Int, ParseError> { ... }
  /// let number = Future<String, ParseError>(value: "42").then(parse)
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one, or into the typed error the future fails with.
  /// - Returns: A future of the transformed value, with the same error type.
  @inlinable
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Future<U, E> {
    _then(.result(transform))
  }

  /// Chains more asynchronous work: `T -> Future<U, E>`. Skipped when this future fails.
  ///
  /// The function runs when the value arrives (now, if it already has), on the thread that delivered it; the
  /// returned future completes with the result of the future the function returned.
  ///
  /// ```swift
  /// let albums = user.then { user in albums(of: user) }  // albums(of:) returns a Future
  /// ```
  ///
  /// - Parameter transform: Turns the value into the future that continues the chain.
  /// - Returns: A future of the inner future's value, with the same error type.
  @inlinable
  public func then<U>(_ transform: @escaping @Sendable (T) -> Future<U, E>) -> Future<U, E> {
    _then(.future(transform))
  }

  /// Transforms the value: the unambiguous spelling of `then` with a `T -> U` function.
  ///
  /// ```swift
  /// let doubled = Future<Int, Never>(value: 21).map { $0 * 2 }
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one.
  /// - Returns: A future of the transformed value.
  @inlinable
  public func map<U>(_ transform: @escaping @Sendable (T) -> U) -> Future<U, E> {
    _then(.value(transform))
  }

  /// Transforms the value with a function that can fail: the unambiguous spelling of `then` with a
  /// `T -> Result<U, E>` function. A `.failure` fails the returned future.
  ///
  /// It has one overload, so long chains of inline closures type-check as fast as `Result.flatMap`
  /// (see `Docs/Troubleshooting.md`).
  ///
  /// ```swift
  /// let checked = Future<Int, RangeError>(value: 3).attemptMap { $0 < 0 ? .failure(.negative) : .success($0) }
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one, or into the typed error the future fails with.
  /// - Returns: A future of the transformed value.
  @inlinable
  public func attemptMap<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Future<U, E> {
    _then(.result(transform))
  }

  /// Continues with more asynchronous work: the unambiguous spelling of `then` with a `T -> Future<U, E>`
  /// function.
  ///
  /// ```swift
  /// let photos = album.flatMap { album in photos(in: album) }
  /// ```
  ///
  /// - Parameter transform: Turns the value into the future that continues the chain.
  /// - Returns: A future of the inner future's value.
  @inlinable
  public func flatMap<U>(_ transform: @escaping @Sendable (T) -> Future<U, E>) -> Future<U, E> {
    _then(.future(transform))
  }

  /// Applies a value-side step now if the result is here, or registers it for when it arrives.
  @inlinable
  func _then<U>(_ step: _FutureValueStep<T, U, E>) -> Future<U, E> {
    if _state.isCompleted {
      let result = _storedResult
      if case .success(let value) = result, case .future(let transform) = step {
        // A loop written as recursion (`count(n) = done.then { count(n - 1) }`) calls back into here from the
        // transform: go through the trampoline, so once the stack budget is spent the rest continues from the
        // outermost hop and this returns a future that it completes.
        switch _hopMode() {
        case .call:
          return transform(value)
        case .enter:
          let next = transform(value)
          _drainHops()
          return next
        case .enqueue:
          let target = Future<U, E>(_pending: ())
          _enqueueHop { transform(value)._forward(to: target).run() }
          return target
        }
      }
      let target = Future<U, E>(_pending: ())
      step.continue(with: result, into: target).run()
      return target
    }
    let target = Future<U, E>(_pending: ())
    _register(_FutureValueStage(step, target: target))
    return target
  }
}
