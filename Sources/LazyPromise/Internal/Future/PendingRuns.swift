/// The runs of a pending future's lazy view (`Future.promise`) waiting for its result: one observer on the
/// future for all of them, which a cancelled run leaves in O(1) (`PendingRunsStateMachine`).
///
/// Observing the future once per run would leave a cancelled run's observer — and everything its continuation
/// holds — in the future until it completes, and the future's lock-free observer stack cannot remove one. Here
/// the table is itself the future's one observer (no closure, no extra node) and holds the first run's completion
/// in a slot of its own; each later run is one node of a doubly linked list, which is both its completion and its
/// cancel handler's target. A cancelled run leaves, and lets go of its completion, before `cancel()` returns,
/// however long the future stays pending. Completions are called in the order the runs began, on the thread that
/// completes the future, with the lock released.
///
/// The hot paths (`add`, `deliver`) are inlinable, so they run specialized where the types are concrete:
/// unspecialized, each looked `Result<T, E>`'s metadata up in the runtime's cache (some 330 instructions a call,
/// measured with `instruction-breakdown.sh future.pendingPromise`).
@usableFromInline
final class PendingRuns<T, E: Error>: _FutureObserverOf<T, E>, @unchecked Sendable {  // state is behind `lock`
  @usableFromInline typealias Completion = @Sendable (Result<T, E>) -> Void

  /// Guards `state` and the first run's slot, kept beside it: see `_StateLock`.
  @usableFromInline let lock: _StateLock
  /// Only read or written inside `lock.withLock`; `@exclusivity(unchecked)` because the lock already makes every
  /// access exclusive.
  @usableFromInline @exclusivity(unchecked) var state: PendingRunsStateMachine
  /// The first run, while `state.first` is `.waiting`: written under the lock as it starts waiting, then touched
  /// only by whoever made it leave (a cancel, the delivery, the future's `deinit`), as a node's fields are
  /// (`_PendingRun`). `@exclusivity(unchecked)` for the same reason as `state`.
  @usableFromInline @exclusivity(unchecked) var firstCompletion: Completion?
  @usableFromInline @exclusivity(unchecked) var firstHandle: RunHandle?
  @usableFromInline @exclusivity(unchecked) var firstGeneration = 0

  /// Made where the future's types are concrete (`Future._pendingRunsTable`), so the observer's `fire` calls
  /// specialized code and captures nothing.
  @inlinable
  init() {
    lock = _StateLock()
    state = PendingRunsStateMachine()
    super.init { node in
      let table = unsafeDowncast(node, to: PendingRuns<T, E>.self)
      table.deliver(table.takeDelivered())
      return .empty
    }
  }

  /// A run of `handle` begins to wait on `future`, which was pending when the run started.
  @inlinable
  func add(_ completion: @escaping Completion, _ handle: RunHandle, on future: Future<T, E>) {
    let generation = handle._generation
    let added: PendingRunsStateMachine.Added
    let stop: @Sendable () -> Void
    let slot: PendingRunsStateMachine.Added? = lock.withLock {
      let slot = state.addFirst()
      if slot == .wait || slot == .waitAndObserve {
        firstCompletion = completion
        firstHandle = handle
        firstGeneration = generation
      }
      return slot
    }
    if let slot {
      added = slot
      stop = { self.stopFirst() }  // one capture, in specialized code: allocates nothing of its own
    } else {
      let run = _PendingRunOf(table: self, handle: handle, generation: generation, completion: completion)
      added = lock.withLock { state.add(run) }
      stop = _PendingRun.stopHandler(run)
    }
    switch added {
    case .deliverNow:  // completed since the run looked: it does not wait
      _deliver(future._storedResult, to: completion)
      return
    case .waitAndObserve:
      future._register(self)  // may deliver at once, if the future completed meanwhile
    case .wait:
      break
    }
    // After the run completes, this registers nothing (its generation has moved on); after it is cancelled, the
    // handler runs at once.
    handle._onCancel(stop, generation: generation)
  }

  /// The first run's cancel handler ran.
  @usableFromInline
  func stopFirst() {
    guard lock.withLock({ state.cancelFirst(isCancelled: firstHandle?._isCancelled == true) }) else { return }
    let held = (firstCompletion, firstHandle)  // it left the slot: the caller's alone
    firstCompletion = nil
    firstHandle = nil
    withExtendedLifetime(held) {}  // released here, with the lock no longer held
  }

  /// A later run's cancel handler ran.
  func stop(_ run: _PendingRunOf<T, E>) {
    guard lock.withLock({ state.cancel(run) }) else { return }
    let held = (run.takeCompletion(), run.handle.take())  // unlinked: the caller's alone
    withExtendedLifetime(held) {}  // released here, with the lock no longer held
  }

  /// The future completed: each waiting run, in the order the runs began, claims its run as a task's completion
  /// would (so a run cancelled meanwhile is refused) and receives the result.
  @inlinable
  func deliver(_ result: Result<T, E>) {
    let waiting = lock.withLock { state.deliver() }
    if waiting.first {
      let completion = firstCompletion
      firstCompletion = nil
      Self.deliver(result, to: completion, of: firstHandle.take(), at: firstGeneration)
    }
    var next = waiting.list
    while let node = next {  // the list is ours now; unlinked one node at a time, so freed in constant stack
      next = node.next.take()
      let run = unsafeDowncast(node, to: _PendingRunOf<T, E>.self)
      Self.deliver(result, to: run.takeCompletion(), of: run.handle.take(), at: run.generation)
    }
  }

  @inlinable
  static func deliver(_ result: Result<T, E>, to completion: Completion?, of handle: RunHandle?, at generation: Int) {
    guard let completion, let handle, case .accepted = handle._claim(generation) else { return }
    _deliver(result, to: completion)
  }

  /// The future is freed while pending: its waiting runs will never deliver; let go of what they hold.
  func abandon() {
    let waiting = lock.withLock { state.abandon() }
    if waiting.first {
      let held = (firstCompletion, firstHandle)
      firstCompletion = nil
      firstHandle = nil
      withExtendedLifetime(held) {}
    }
    var next = waiting.list
    while let node = next {
      next = node.next.take()
      let run = unsafeDowncast(node, to: _PendingRunOf<T, E>.self)
      let held = (run.takeCompletion(), run.handle.take())
      withExtendedLifetime(held) {}
    }
  }
}

/// A run of a pending future's lazy view after the first: its node in `PendingRuns`, holding the run's completion.
@usableFromInline
final class _PendingRunOf<T, E: Error>: _PendingRun, @unchecked Sendable {  // follows `_PendingRun`'s ownership
  /// The run's continuation; `nil` once delivered to or let go of.
  @usableFromInline @exclusivity(unchecked) var completion: (@Sendable (Result<T, E>) -> Void)?
  /// The list the node is in; held, so that a cancel handler that runs after the future was freed finds it.
  @usableFromInline let table: PendingRuns<T, E>

  @inlinable
  init(
    table: PendingRuns<T, E>, handle: RunHandle, generation: Int,
    completion: @escaping @Sendable (Result<T, E>) -> Void
  ) {
    self.table = table
    self.completion = completion
    super.init(handle: handle, generation: generation)
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
