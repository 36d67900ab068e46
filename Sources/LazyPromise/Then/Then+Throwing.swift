// MARK: - Throwing functions passed to then/map: diagnostics naming tryMap

// `then` and `map` take functions that do not throw. These unavailable overloads only exist so that a throwing
// function or closure is rejected with the fix named ("use tryMap"), where Swift would otherwise say "no exact
// matches in call to instance method 'then'". The type checker never picks an unavailable overload for code that
// compiles, so they cost nothing to chains that type-check (Docs/Proposals/0002-then-overloads.md, section 9).

extension Promise {
  /// A function that throws: not a `then` stage. ``tryMap(_:file:line:)`` chains it.
  ///
  /// Only a diagnostic. Pass the function by name, or give the closure its thrown type (Swift 6.3 does not take it
  /// from context):
  ///
  /// ```swift
  /// func checkSize(_ x: Int) throws(SizeError) -> Int { ... }
  /// promise.tryMap(checkSize)  // or: .tryMap { x throws(SizeError) in try checkSize(x) }
  /// ```
  @available(
    *, unavailable,
    message:
      "then takes no throwing function: use tryMap(f), or tryMap { x throws(E) in ... } (a closure writes its thrown type), or tryMap(_:mapError:) for other errors"
  )
  public func then<U>(_ transform: @escaping @Sendable (T) throws -> U) -> Promise<U, E> {
    fatalError("unavailable")
  }

  /// A function that throws: not a `map` stage. ``tryMap(_:file:line:)`` chains it.
  ///
  /// Only a diagnostic:
  ///
  /// ```swift
  /// promise.tryMap { x throws(SizeError) in try checkSize(x) }
  /// ```
  @available(
    *, unavailable,
    message:
      "map takes no throwing function: use tryMap(f), or tryMap { x throws(E) in ... } (a closure writes its thrown type), or tryMap(_:mapError:) for other errors"
  )
  public func map<U>(_ transform: @escaping @Sendable (T) throws -> U) -> Promise<U, E> {
    fatalError("unavailable")
  }
}

extension Future {
  /// A function that throws: not a `then` stage. ``tryMap(_:)`` chains it.
  ///
  /// Only a diagnostic, as on `Promise`:
  ///
  /// ```swift
  /// future.tryMap(checkSize)  // func checkSize(_ x: Int) throws(SizeError) -> Int
  /// ```
  @available(
    *, unavailable,
    message:
      "then takes no throwing function: use tryMap(f), or tryMap { x throws(E) in ... } (a closure writes its thrown type)"
  )
  public func then<U>(_ transform: @escaping @Sendable (T) throws -> U) -> Future<U, E> {
    fatalError("unavailable")
  }

  /// A function that throws: not a `map` stage. ``tryMap(_:)`` chains it.
  ///
  /// Only a diagnostic, as on `Promise`:
  ///
  /// ```swift
  /// future.tryMap { x throws(SizeError) in try checkSize(x) }
  /// ```
  @available(
    *, unavailable,
    message:
      "map takes no throwing function: use tryMap(f), or tryMap { x throws(E) in ... } (a closure writes its thrown type)"
  )
  public func map<U>(_ transform: @escaping @Sendable (T) throws -> U) -> Future<U, E> {
    fatalError("unavailable")
  }
}
