// MARK: - Cancelling

extension Future where E: CancellationRepresentable {
  /// Cancels the future: if it is still pending, it fails with `E.cancelled` and its work is stopped.
  ///
  /// On the calling thread, before `cancel()` returns: the work's cancel handlers run — those of the run
  /// ``Promise/start()`` began (as ``RunHandle/cancel()`` runs them), or those registered with
  /// ``init(file:line:_:)-(_,_,(Future<T,E>.Completion,Future<T,E>.OnCancel)->Void)`` or
  /// ``Resolver/onCancel(_:)`` — and then every observer receives `.failure(.cancelled)`, exactly once, as for
  /// any completion. A result the work delivers afterwards is ignored, without a diagnostic.
  ///
  /// Cancellation flows downstream, never upstream: the futures chained from this one receive `.cancelled` as
  /// they receive any failure, while the future this one was chained from — which others may observe — goes on.
  /// Cancelling a future that has already completed does nothing, and so does cancelling it twice.
  ///
  /// ```swift
  /// let artist = lookup(id: "909253").start()  // Future<Artist, LookupError>: the request is under way
  /// artist.observe { print($0) }               // failure(LookupError.cancelled)
  /// artist.cancel()                            // the request is cancelled; the observer runs now
  /// ```
  ///
  /// > Note: `cancel()` exists only where the error type can say "cancelled" (``CancellationRepresentable``, or
  /// > `any Error`): with any other `E`, an observer could be given no result at all, and `await future.value`
  /// > would wait forever.
  @inlinable
  public func cancel() {
    _cancel(with: .cancelled)
  }
}

extension Future where E == any Error {
  /// Cancels the future: if it is still pending, it fails with a `CancellationError` and its work is stopped.
  ///
  /// Threads, observers and derived futures are as for the `CancellationRepresentable` `cancel()`.
  ///
  /// ```swift
  /// let download: Future<Data, any Error> = Promise { try await fetch(url) }.start()
  /// download.cancel()  // the Swift task is cancelled; observers receive failure(CancellationError())
  /// ```
  @inlinable
  public func cancel() {
    _cancel(with: CancellationError())
  }
}

extension Future {
  /// Not available: a future can be cancelled only when its error type can say "cancelled".
  ///
  /// Add a `cancelled` case to `E` and conform it to ``CancellationRepresentable`` (or use `any Error`); or keep
  /// the promise and cancel its run (``RunHandle/cancel()``), whose handlers receive nothing.
  ///
  /// ```swift
  /// enum LookupError: Error, CancellationRepresentable { case notFound, cancelled }
  /// ```
  @available(
    *, unavailable,
    message:
      "a Future can be cancelled only when its error type can say 'cancelled': conform it to CancellationRepresentable, or use any Error"
  )
  public func cancel() {
    fatalError("unavailable")
  }

  /// Whether ``cancel()-3bxh5`` completed this future.
  ///
  /// `false` while it is pending and for a future completed any other way — including one that failed with
  /// `.cancelled` because the future it was chained from was cancelled.
  ///
  /// ```swift
  /// artist.cancel()
  /// assert(artist.isCancelled || artist.result != nil)
  /// ```
  public var isCancelled: Bool {
    _state.claim.load(ordering: .acquiring) & _FutureStateMachine.cancelledBit != 0
  }

  /// Registers a handler that stops the future's work if it is cancelled.
  public typealias OnCancel = @Sendable (_ handler: @escaping @Sendable () -> Void) -> Void

  /// Starts `task` now and returns the future of its result; the task registers with `onCancel` how to stop.
  ///
  /// The task runs once, synchronously, on the calling thread before the initializer returns. If the future is
  /// cancelled while it is pending, the handlers run (once, on the cancelling thread, in registration order), and
  /// a result the task delivers afterwards is ignored. A handler registered after the cancel runs at once; one
  /// registered after the future completed otherwise never runs.
  ///
  /// ```swift
  /// let data = Future<Data, HTTPError> { completion, onCancel in
  ///   let request = client.get(url) { completion($0) }
  ///   onCancel { request.cancel() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: Where the future is made, for diagnostics; leave the default.
  ///   - line: Where the future is made, for diagnostics; leave the default.
  ///   - task: The work; it must call `completion` exactly once unless cancelled.
  @inlinable
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line,
    _ task: (_ completion: @escaping Completion, _ onCancel: @escaping OnCancel) -> Void
  ) {
    self.init(_pending: ())
    // Unsafe only to the checker (`T` need not be `Sendable`): a resolver completes its future through the future's
    // atomic state word, from any thread.
    nonisolated(unsafe) let resolver = Resolver(_future: self, _site: _Site(file: file, line: line))
    task({ resolver.complete($0) }, { resolver.onCancel($0) })
  }
}

extension Future.Resolver {
  /// Registers `handler` to stop the work if the future is cancelled while it is pending.
  ///
  /// Handlers run once, in registration order, on the thread that cancels the future, with no lock held. A handler
  /// registered after the future was cancelled runs at once, on the calling thread; one registered after it
  /// completed otherwise is dropped, never run.
  ///
  /// ```swift
  /// let (photos, resolver) = Future<[Photo], APIError>.makePending()
  /// let request = client.get("/photos") { resolver.complete($0) }
  /// resolver.onCancel { request.cancel() }
  /// ```
  ///
  /// - Parameter handler: Stops the work.
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    _future._onCancel(handler)
  }
}
