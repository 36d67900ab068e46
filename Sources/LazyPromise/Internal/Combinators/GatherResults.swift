// Reading a finished gather's slots: by the time `all`, `allSettled` or `any` delivers, every slot it reads holds
// the kind of result its rule waited for, so a slot that does not is a bug in the gather, reported as such.

/// The value of an input that `all` reported as succeeded.
@inlinable
func _successValue<T, E>(_ result: Result<T, E>?) -> T {
  guard case .success(let value)? = result else {
    fatalError("Internal inconsistency: all delivered with input result \(String(describing: result))")
  }
  return value
}

/// The result of an input that `allSettled` reported as delivered.
@inlinable
func _settledResult<T, E>(_ result: Result<T, E>?) -> Result<T, E> {
  guard let result else { fatalError("Internal inconsistency: allSettled delivered with an input pending") }
  return result
}

/// The error of an input that `any` reported as failed.
@inlinable
func _failureError<T, E>(_ result: Result<T, E>?) -> E {
  guard case .failure(let error)? = result else {
    fatalError("Internal inconsistency: any failed with input result \(String(describing: result))")
  }
  return error
}

extension Promise where T: Sendable {
  /// This promise's outcome as a value: a promise that cannot fail.
  func asSettled() -> Promise<Result<T, E>, Never> {
    Promise<Result<T, E>, E>(_stage: _ValueStage(upstream: _source, owner: _owner, .value { Result<T, E>.success($0) }))
      .recover { Result<T, E>.failure($0) }
  }
}
