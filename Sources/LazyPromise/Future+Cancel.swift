import Synchronization

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
    _work.load(ordering: .acquiring) & Self._cancelledBit != 0
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

// MARK: - Internal

// A future's `_work` word is 0 while it has no work to stop, or the address of a `RunHandle` it holds one
// reference to: the run `start()` began, or a handle made for the handlers a resolver registers. Bit 0 is set by
// `cancel()` (handle or not) while it holds the future's one-shot completion claim, before the future reads
// completed; so a thread that sees the future completed and the bit clear knows it completed some other way.

extension Future {
  @inlinable
  static var _cancelledBit: UInt { 1 }

  /// The handle whose address `bits` holds (bit 0 masked off), or `nil`; the future keeps its reference.
  @inlinable
  static func _handle(_ bits: UInt) -> RunHandle? {
    let address = bits & ~_cancelledBit
    guard address != 0 else { return nil }
    return Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
  }

  /// Completes the future with `error` unless it is completed, stopping its work first.
  @inlinable
  func _cancel(with error: E) {
    var work: UInt = 0
    let action = _state.complete(storing: {
      _result = .failure(error)
      work = _work.bitwiseOr(Self._cancelledBit, ordering: .acquiringAndReleasing).oldValue
    })
    guard case .deliver(let stack) = action else { return }  // already completed: nothing to do
    Self._handle(work)?.cancel()
    _FutureNodeList.delivering(Result<T, E>.failure(error), to: stack).run()
  }

  /// Makes `handle` the work `cancel()` stops: the run `start()` began, before anyone else holds the future.
  func _attachWork(_ handle: RunHandle) {
    let bits = UInt(bitPattern: Unmanaged.passRetained(handle).toOpaque())
    let (exchanged, original) = _work.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    guard exchanged else {
      fatalError("Internal inconsistency: a future being started already holds work (\(original))")
    }
  }

  /// Registers a resolver's cancel handler; see `Resolver.onCancel`.
  @usableFromInline
  func _onCancel(_ handler: @escaping @Sendable () -> Void) {
    // Read the state first: a `cancel()` sets the bit before the future reads completed.
    let completed = _state.isCompleted
    var bits = _work.load(ordering: .acquiring)
    while true {
      if bits & Self._cancelledBit != 0 { return handler() }  // cancelled: stop now
      if let handle = Self._handle(bits) { return handle._onCancel(handler, generation: 0) }
      if completed { return }  // completed, not by `cancel()`: nothing will stop; drop the handler
      let handle = RunHandle()
      let made = UInt(bitPattern: Unmanaged.passRetained(handle).toOpaque())
      let (exchanged, original) = _work.compareExchange(
        expected: 0, desired: made, ordering: .acquiringAndReleasing)
      guard exchanged else {
        Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: made)!).release()
        bits = original
        continue
      }
      handle._onCancel(handler, generation: 0)
      // A completion that read the word before it held this handle did not drop the handlers: do it here, unless
      // the completion was a cancel (which set the bit before the state read completed, and cancels the handle).
      if _state.isCompleted && _work.load(ordering: .acquiring) & Self._cancelledBit == 0 {
        _ = handle._claim(0)
      }
      return
    }
  }

  /// Drops the cancel handlers of a future its resolver completed: the work is done, they will never run.
  @inlinable
  func _dropCancelHandlers() {
    let bits = _work.load(ordering: .acquiring)
    if bits & Self._cancelledBit == 0, let handle = Self._handle(bits) {
      _ = handle._claim(0)  // drops the handlers; a later registration (generation 0) is dropped too
    }
  }

  /// Releases the work handle, if any; called from `deinit`.
  func _releaseWork() {
    let address = _work.load(ordering: .acquiring) & ~Self._cancelledBit
    if address != 0 { Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release() }
  }
}
