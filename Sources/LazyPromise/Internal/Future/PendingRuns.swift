/// The runs of a pending future's lazy view (`Future.promise`) waiting for its result: one observer on the
/// future for all of them, and a list a cancelled run leaves in O(1) (`PendingRunsStateMachine`).
///
/// Observing the future once per run would leave a cancelled run's observer — and everything its continuation
/// holds — in the future until it completes, and the future's lock-free observer stack cannot remove one. Here
/// each run is one node, linked under a lock, which is both the run's completion and its cancel handler's target:
/// a cancelled run unlinks itself and lets go of its completion before `cancel()` returns, however long the future
/// stays pending. The table is itself the future's one observer (no closure, no extra node). Completions are
/// called in the order the runs began, on the thread that completes the future, with the lock released.
@usableFromInline
final class PendingRuns<T, E: Error>: _FutureObserverOf<T, E>, @unchecked Sendable {  // state is behind `lock`
  /// Guards `state`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it, as in the other engines
  /// (see `_Lock`); the machine is not generic anyway.
  @usableFromInline let lock: _Lock<Void>
  /// Only read or written inside `lock.withLock`; `@exclusivity(unchecked)` because the lock already makes every
  /// access exclusive.
  @usableFromInline @exclusivity(unchecked) var state: PendingRunsStateMachine

  /// Made where the future's types are concrete (`Future._pendingRunsTable`), so the observer's `fire` calls
  /// specialized code and captures nothing.
  @inlinable
  init() {
    lock = _Lock(())
    state = PendingRunsStateMachine()
    super.init { node in
      let table = unsafeDowncast(node, to: PendingRuns<T, E>.self)
      table.deliver(table.takeDelivered())
      return .empty
    }
  }

  /// `run` begins to wait on `future`, which was pending when the run started.
  ///
  /// Inlinable, as `deliver` is, so that both run specialized where the types are concrete: unspecialized, each
  /// looked `Result<T, E>`'s metadata up in the runtime's cache (some 330 instructions a call, measured with
  /// `instruction-breakdown.sh future.pendingPromise`).
  @inlinable
  func add(_ run: _PendingRunOf<T, E>, on future: Future<T, E>, _ handle: RunHandle) {
    let generation = run.generation  // read before linking: from then on the node may be delivered and emptied
    switch lock.withLock({ _ in state.add(run) }) {
    case .deliverNow:  // completed since the run looked: `run` was not linked, it is the caller's alone
      run.handle = nil
      if let completion = run.takeCompletion() { _deliver(future._storedResult, to: completion) }
      return
    case .waitAndObserve:
      future._register(self)  // may deliver at once, if the future completed meanwhile
    case .wait:
      break
    }
    // After the run completes, this registers nothing (its generation has moved on); after it is cancelled, the
    // handler runs at once.
    handle._onCancel(_PendingRun.stopHandler(run), generation: generation)
  }

  /// `run`'s cancel handler ran.
  func stop(_ run: _PendingRunOf<T, E>) {
    guard lock.withLock({ _ in state.cancel(run) }) else { return }
    let held = (run.takeCompletion(), run.handle.take())  // unlinked: the caller's alone
    withExtendedLifetime(held) {}  // released here, with the lock no longer held
  }

  /// The future completed: each waiting run, in the order the runs began, claims its run as a task's completion
  /// would (so a run cancelled meanwhile is refused) and receives the result.
  @inlinable
  func deliver(_ result: Result<T, E>) {
    var next = lock.withLock { _ in state.deliver() }
    while let node = next {  // the list is ours now; unlinked one node at a time, so freed in constant stack
      next = node.next.take()
      let run = unsafeDowncast(node, to: _PendingRunOf<T, E>.self)
      guard let completion = run.takeCompletion(), let handle = run.handle.take() else { continue }
      if case .accepted = handle._claim(run.generation) { _deliver(result, to: completion) }
    }
  }

  /// The future is freed while pending: its waiting runs will never deliver; let go of what they hold.
  func abandon() {
    var next = lock.withLock { _ in state.abandon() }
    while let node = next {
      next = node.next.take()
      let run = unsafeDowncast(node, to: _PendingRunOf<T, E>.self)
      let held = (run.takeCompletion(), run.handle.take())
      withExtendedLifetime(held) {}
    }
  }
}

/// One run of a pending future's lazy view: its node in `PendingRuns`, holding the run's completion.
@usableFromInline
final class _PendingRunOf<T, E: Error>: _PendingRun, @unchecked Sendable {  // follows `_PendingRun`'s ownership
  /// The run's continuation; `nil` once delivered to or let go of.
  @usableFromInline @exclusivity(unchecked) var completion: (@Sendable (Result<T, E>) -> Void)?
  /// The list the node is in; held, so that a cancel handler that runs after the future was freed finds it.
  @usableFromInline let table: PendingRuns<T, E>

  @inlinable
  init(table: PendingRuns<T, E>, handle: RunHandle, completion: @escaping @Sendable (Result<T, E>) -> Void) {
    self.table = table
    self.completion = completion
    super.init(handle: handle, generation: handle._generation)
  }

  /// The completion, taken out of the node. Not `Optional.take()`: that generic method would wrap the closure in
  /// two reabstraction thunks (two allocations a delivery, seen with `instruction-breakdown.sh`).
  @inlinable
  func takeCompletion() -> (@Sendable (Result<T, E>) -> Void)? {
    defer { completion = nil }
    return completion
  }

  @usableFromInline
  override func stop() {
    table.stop(self)
  }
}
