// MARK: - Awaiting a future

extension Future where T: Sendable {
  /// Waits for the future's value, throwing its error with its own type.
  ///
  /// The future's work is already under way and is shared: awaiting starts nothing and cancelling the awaiting
  /// task never stops it. For an error type that cannot say "cancelled", the `await` therefore lasts until the
  /// future completes; if `E` is ``CancellationRepresentable`` (or `any Error`), the more specific `value` ends
  /// the `await` at once on cancellation, and the future goes on for its other observers. For the `Result`, await
  /// `future.promise.result`.
  ///
  /// ```swift
  /// let artist = lookup(id: "909253").start()   // Future<Artist, LookupError>: the request is under way
  /// let name = try await artist.value.name      // throws(LookupError)
  /// ```
  public var value: T {
    get async throws(E) {
      try await promise.awaitResult(endingWith: nil).get()
    }
  }
}

extension Future where T: Sendable, E: CancellationRepresentable {
  /// Waits for the future's value; cancelling the awaiting task ends the `await` at once with `E.cancelled`.
  ///
  /// The future's work goes on for its other observers: awaiting never cancels the future (``cancel()-3bxh5`` does).
  ///
  /// ```swift
  /// let waiting = Task { try await artistFuture.value }
  /// waiting.cancel()  // throws LookupError.cancelled; the lookup itself goes on
  /// ```
  public var value: T {
    get async throws(E) {
      try await promise.awaitResult(endingWith: .cancelled).get()
    }
  }
}

extension Future where T: Sendable, E == any Error {
  /// Waits for the future's value; cancelling the awaiting task ends the `await` at once with a
  /// `CancellationError`.
  ///
  /// ```swift
  /// let data = try await downloadFuture.value
  /// ```
  public var value: T {
    get async throws {
      try await promise.awaitResult(endingWith: CancellationError()).get()
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
