// MARK: - Writing when others may have written first

extension Future.Resolver {
  /// Completes the future with `result` if it is still pending, and says whether it did.
  ///
  /// For work that races to complete one future — a reply against a timeout, the first of several sources — where
  /// losing is expected: a call that finds the future completed (or cancelled) does nothing and returns `false`,
  /// and, unlike ``complete(_:)``, is never reported as a diagnostic. When it returns `true`, the observers have
  /// run, on the calling thread, before it returns (as for ``complete(_:)``).
  ///
  /// ```swift
  /// let (reply, resolver) = Future<Data, RequestError>.makePending()
  /// client.get(url) { resolver.tryComplete($0) }
  /// timer.schedule(after: .seconds(5)) {
  ///   if resolver.tryReject(.timedOut) { client.cancel() }  // only if the reply did not come first
  /// }
  /// ```
  ///
  /// - Parameter result: The result every observer receives, if this call is the first.
  /// - Returns: `true` if this call completed the future; `false` if it was already completed.
  @inlinable
  @discardableResult
  public func tryComplete(_ result: Result<T, E>) -> Bool {
    guard let ready = _future._trySettle(result) else { return false }
    ready.run()
    return true
  }

  /// Completes the future with `value` if it is still pending, and says whether it did.
  ///
  /// As ``tryComplete(_:)``: a late call does nothing, returns `false` and reports no diagnostic.
  ///
  /// ```swift
  /// let won = resolver.tryResolve(cachedArtist)  // false if the network answered first
  /// ```
  ///
  /// - Parameter value: The value every observer receives, if this call is the first.
  /// - Returns: `true` if this call completed the future; `false` if it was already completed.
  @inlinable
  @discardableResult
  public func tryResolve(_ value: T) -> Bool {
    tryComplete(.success(value))
  }

  /// Completes the future with `error` if it is still pending, and says whether it did.
  ///
  /// As ``tryComplete(_:)``: a late call does nothing, returns `false` and reports no diagnostic.
  ///
  /// ```swift
  /// if resolver.tryReject(.timedOut) { print("gave up waiting") }
  /// ```
  ///
  /// - Parameter error: The error every observer receives, if this call is the first.
  /// - Returns: `true` if this call completed the future; `false` if it was already completed.
  @inlinable
  @discardableResult
  public func tryReject(_ error: E) -> Bool {
    tryComplete(.failure(error))
  }
}
