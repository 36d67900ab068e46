// MARK: - Chaining values

extension Future {
  /// Chains the next step: an inline closure producing a value, a `Result<U, E>` or a `Future<U, E>`, or a
  /// function returning a `Result<U, E>` or a `Future<U, E>`. Skipped when this future fails.
  ///
  /// A closure written without `return` is built by ``FutureThenBuilder``: a plain value continues the chain, a
  /// `Result` continues or fails, a `Future` continues with its result. Eager: if this future is completed the
  /// function runs now, on the calling thread; otherwise it runs once, on the thread that completes this future —
  /// whether or not anyone observes the returned future.
  ///
  /// As on `Promise`, write a plain transform with `map` and keep `then` for `Result`/`Future` stages and
  /// named functions: the type checker then has nothing to weigh (`Docs/Troubleshooting.md`, "The first chain").
  ///
  /// ```swift
  /// let albums = user
  ///   .map(\.id)                                          // a plain value: map
  ///   .then { $0 > 0 ? .success($0) : .failure(.badID) }  // a Result
  ///   .then { id in albums(ofUser: id) }                  // a Future
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next value, result or future.
  /// - Returns: A future of the next value, with the same error type.
  @inlinable
  public func then<Step: FutureThenStep>(
    @FutureThenBuilder<E> _ transform: @escaping @Sendable (T) -> Step
  ) -> Future<Step.Success, E> where Step.Failure == E {
    _thenStep(transform)
  }

  /// Chains a function of the value: `T -> U`. Skipped when this future fails.
  ///
  /// It serves function references and key paths (`then(toModel)`, `then(\.count)`) and closures with `return`
  /// and an explicit result type; an inline closure without `return` goes to the ``FutureThenBuilder`` overload.
  /// For a key path or a closure with `return`, prefer `map`, which leaves the type checker one declaration.
  /// Eager: if this future is completed the function runs now, on the calling thread; otherwise it runs once, on
  /// the thread that completes this future.
  ///
  /// ```swift
  /// func describe(_ count: Int) -> String { "\(count) items" }
  /// let text = Future<Int, Never>(value: 3).then(describe)
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one.
  ///   - file: Where the stage is made, for diagnostics; leave the default.
  ///   - line: Where the stage is made, for diagnostics; leave the default.
  /// - Returns: A future of the transformed value, with the same error type.
  @inlinable @_disfavoredOverload
  public func then<U>(
    _ transform: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line
  ) -> Future<U, E> {
    _reportNestedStep(U.self, file: file, line: line)
    return _map(transform)
  }

  /// A closure with `return` statements that returns `.success(...)` or `.failure(...)` without a written result
  /// type: not a chain step until the result type is written.
  ///
  /// Only a diagnostic, as on `Promise`. Write the result type, or use ``attemptMap(_:)``:
  ///
  /// ```swift
  /// future.then { x -> Result<Int, RangeError> in
  ///   if x < 0 { return .failure(.negative) }
  ///   return .success(x + 1)
  /// }
  /// ```
  @available(
    *, unavailable,
    message:
      "write the closure's result type ('x -> Result<U, E> in') or use attemptMap, so that .success/.failure have a type"
  )
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Future<U, E> {
    fatalError("unavailable")
  }

  /// Transforms the value: the spelling to use for a plain `T -> U` stage — an inline closure, with or without
  /// `return`, a key path or a function. One declaration, so the type checker has nothing to weigh, in `async`
  /// functions too; a function that throws goes through ``tryMap(_:)``.
  ///
  /// ```swift
  /// let doubled = Future<Int, Never>(value: 21).map { $0 * 2 }
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one.
  /// - Returns: A future of the transformed value.
  @inlinable
  public func map<U>(_ transform: @escaping @Sendable (T) -> U) -> Future<U, E> {
    _map(transform)
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
    _thenStep(transform)
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
    _thenStep(transform)
  }
}
