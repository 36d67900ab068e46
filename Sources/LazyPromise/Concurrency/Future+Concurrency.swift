// MARK: - Awaiting a future

extension Future where T: Sendable {
  /// Waits for the future's value, throwing its error with its own type.
  ///
  /// The future's work is already under way and is shared: awaiting starts nothing and cancelling the awaiting
  /// task never stops it. If `E` can say "cancelled" (``CancellationRepresentable``, or `any Error`), cancelling
  /// the awaiting task ends the `await` at once with `E.cancelled` (a `CancellationError`), and the future goes on
  /// for its other observers; for any other `E` the `await` lasts until the future completes. The rule follows the
  /// type `E` is at run time, in generic code too. For the `Result`, await `future.promise.result`.
  ///
  /// ```swift
  /// let artist = lookup(id: "909253").start()   // Future<Artist, LookupError>: the request is under way
  /// let name = try await artist.value.name      // throws(LookupError)
  /// ```
  public var value: T {
    get async throws(E) {
      try await promise.awaitResult(endingWith: cancelledError(E.self)).get()
    }
  }
}

extension Future where T: Sendable, E == Never {
  /// Waits for the value of a future that cannot fail; nothing to `try`. The `await` lasts until it completes.
  ///
  /// ```swift
  /// let total: Int = await countFuture.value
  /// ```
  public var value: T {
    get async {
      switch await promise.awaitResult(endingWith: nil) {
      case .success(let value): value
      }
    }
  }
}
