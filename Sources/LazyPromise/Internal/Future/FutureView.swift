import Synchronization

/// The stage of `Future.promise`, the lazy view of a future: each run delivers the future's result, at once if it
/// is completed, otherwise when it completes (waiting in the future's `PendingRuns`).
///
/// One object per view. A run of a completed future allocates nothing more; the first run of a pending one makes
/// the future's table, each later run its node.
@usableFromInline
final class _FutureViewStage<T, E: Error>: _Stage<T, E>, @unchecked Sendable {  // immutable; a future is thread-safe
  @usableFromInline let future: Future<T, E>

  /// Made where the types are concrete (`Future.promise` is inlinable), so `_invoke` captures nothing.
  @inlinable
  init(_ future: Future<T, E>) {
    self.future = future
    super.init(owner: nil) { stage, handle, completion in
      unsafeDowncast(stage, to: _FutureViewStage<T, E>.self).future._runView(handle, completion)
    }
  }
}

extension Future {
  /// One run of this future's lazy view: delivers at once if the future is completed, with no table at all;
  /// otherwise the run waits in the future's table of pending runs, which a cancelled run leaves.
  @inlinable
  func _runView(_ handle: RunHandle, _ completion: @escaping @Sendable (Result<T, E>) -> Void) {
    guard !handle._isCancelled else { return }
    if _state.isCompleted {
      _deliver(_storedResult, to: completion)
      return
    }
    _pendingRunsTable.add(completion, handle, on: self)
  }

  /// This future's waiting runs, made the first time a run of its lazy view finds it pending.
  ///
  /// Published once by a compare-and-swap and never replaced; the future holds it until `deinit`, so a caller
  /// holding the future may use it unretained.
  @inlinable
  var _pendingRunsTable: PendingRuns<T, E> {
    let bits = _pendingRuns.load(ordering: .acquiring)
    if bits != 0 { return Self._pendingRuns(at: bits) }
    return _publishPendingRuns(PendingRuns())
  }

  /// Publishes `made` as this future's table, unless another run published one first.
  @usableFromInline
  func _publishPendingRuns(_ made: PendingRuns<T, E>) -> PendingRuns<T, E> {
    let bits = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
    let (exchanged, original) = _pendingRuns.compareExchange(
      expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    if exchanged { return made }
    Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
    return Self._pendingRuns(at: original)
  }

  /// Lets go of the table, if one was made; called from `deinit`.
  ///
  /// Only a future freed while pending abandons the runs still waiting in it. A completed future can be freed
  /// while its own completion is still delivering (a temporary mapped future is held only by the stage that
  /// completes it): the table is then an observer still to be called, and delivers to its runs (contract 20.6).
  func releasePendingRuns() {
    let bits = _pendingRuns.load(ordering: .acquiring)
    guard bits != 0 else { return }
    let table = Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
    if !_state.isCompleted { table.abandon() }
  }

  @inlinable
  static func _pendingRuns(at bits: UInt) -> PendingRuns<T, E> {
    Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
  }
}
