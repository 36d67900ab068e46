// MARK: - A promise of another error type returned from then: refused, naming mapError

// A `then` closure that returns a `Promise<U, F>` or a `Result<U, F>` (or a `Future`) whose error type is not the chain's is taken as a
// plain value, `T -> Promise<U, F>`, and its work never runs (contract 10.6). These builder expressions keep that
// meaning but are deprecated, so such a closure gets a warning that names the fix. A function reference or a
// closure with `return` reaches the value overload instead; there debug builds report
// `.thenDeliversAnotherErrorType` when the stage is made (`_reportNestedStep`).

extension ThenBuilder {
  /// A promise (or a `Result`) that fails with another error type: delivered as a plain value, so its work never
  /// runs.
  ///
  /// Deprecated so that the compiler warns, naming the fix. (An unavailable overload would not do: the type
  /// checker would quietly take the plain-value `then` instead.) Convert the error:
  ///
  /// ```swift
  /// fetchUser(1).then { user in fetchAvatar(user.avatar).mapError(UserError.avatar) }
  /// ```
  @available(
    *, deprecated,
    message:
      "this promise or Result fails with another error type, so then delivers it as a plain value and never runs it: convert its error with .mapError { ... }"
  )
  @inlinable
  public static func buildExpression<Step: ThenStep>(_ step: Step) -> Promise<Step, E> {
    Promise<Step, E>(value: step)
  }

  /// A future: delivered as a plain value. A `Promise` chain runs promises; return the future's lazy view.
  ///
  /// Deprecated so that the compiler warns, naming the fix:
  ///
  /// ```swift
  /// lookup.then { id in cache.future(for: id).promise }
  /// ```
  @available(
    *, deprecated,
    message:
      "then delivers a future as a plain value: return future.promise (with .mapError { ... } if its error type differs)"
  )
  @inlinable
  public static func buildExpression<U, F: Error>(_ future: Future<U, F>) -> Promise<Future<U, F>, E> {
    Promise<Future<U, F>, E>(value: future)
  }
}

extension FutureThenBuilder {
  /// A future that fails with another error type: delivered as a plain value, not waited for.
  ///
  /// Deprecated so that the compiler warns, naming the fix:
  ///
  /// ```swift
  /// user.then { user in avatar(for: user).mapError(UserError.avatar) }
  /// ```
  @available(
    *, deprecated,
    message:
      "this future fails with another error type, so then delivers it as a value and does not wait for it: convert it with .mapError { ... }"
  )
  @inlinable
  public static func buildExpression<U, F: Error>(_ future: Future<U, F>) -> Result<Future<U, F>, E> {
    .success(future)
  }

  /// A promise: delivered as a plain value, never run. A `Future` chain waits for futures; start it.
  ///
  /// Deprecated so that the compiler warns, naming the fix:
  ///
  /// ```swift
  /// user.then { user in fetchAvatar(user.avatar).start() }
  /// ```
  @available(
    *, deprecated,
    message:
      "then delivers a promise as a plain value and never runs it: start it with .start() (with .mapError { ... } if its error type differs)"
  )
  @inlinable
  public static func buildExpression<U, F: Error>(_ promise: Promise<U, F>) -> Result<Promise<U, F>, E> {
    .success(promise)
  }
}

/// Reports, in debug builds, a `then` stage whose function returns a promise, a future or a `Result`: the value
/// overload took it as a plain value, so its work would never run. Called when the stage is made.
@inlinable
func _reportNestedStep<U>(_: U.Type, file: StaticString, line: UInt) {
  #if DEBUG
    if U.self is any ThenStep.Type || U.self is any FutureThenStep.Type {
      PromiseDiagnostics.report(.thenDeliversAnotherErrorType, site: _Site(file: file, line: line))
    }
  #endif
}
