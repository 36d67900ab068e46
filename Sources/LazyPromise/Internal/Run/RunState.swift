import Synchronization

// The engine side of a run: its state word, exactly-once acceptance of task completions, and the cancel handlers.
//
// The state word packs four things, each read with one load:
// - bit 0 (`_cancelled`): `cancel()` won;
// - bit 1 (`_delivered`): the run delivered;
// - bit 2 (`_hasHandlers`): a task of this generation may have registered cancel handlers, so a claim must drop
//   them under the lock (without it, a claim takes no lock);
// - bits 3... (`_generation`, counted in `_generationStep`s): how many task completions the run has accepted, so a
//   task's completion is accepted only for the generation it was invoked at, exactly once.

extension RunHandle {
  @usableFromInline static let _cancelled = 1
  @usableFromInline static let _delivered = 2
  @usableFromInline static let _hasHandlers = 4
  @usableFromInline static let _generationShift = 3
  @usableFromInline static let _generationStep = 8  // 1 << _generationShift

  /// Asks the run to stop cooperatively: the pending task's cancel handlers run now, and so does every handler a
  /// task of this run registers later (at once) — but nothing is suppressed: stages still start and the run still
  /// delivers whatever its tasks deliver. Calling it again does nothing.
  ///
  /// This is Swift's cooperative cancellation, used where a run cannot end with a value of its own (an awaited
  /// promise whose error type cannot say "cancelled"); `cancel()` after it still suppresses delivery.
  @usableFromInline
  func _interrupt() {
    withCancelHandlers { $0.take(stopping: true) }.run(keeping: self)
  }

  @inlinable
  var _isCancelled: Bool { _state.load(ordering: .relaxed) & Self._cancelled != 0 }

  /// How many task completions this run has accepted; a task invoked now completes generation `_generation`.
  @inlinable
  var _generation: Int { _state.load(ordering: .acquiring) >> Self._generationShift }

  /// The outcome of a task's call to its completion handler.
  @usableFromInline enum _Claim { case accepted, cancelled, duplicate }

  /// Accepts the completion of the task that was invoked at `generation`, exactly once.
  @inlinable
  @inline(__always)
  func _claim(_ generation: Int) -> _Claim {
    var state = _state.load(ordering: .acquiring)
    while true {
      if state & Self._cancelled != 0 { return .cancelled }
      if state >> Self._generationShift != generation { return .duplicate }
      let (exchanged, original) = _state.compareExchange(
        expected: state, desired: (state &+ Self._generationStep) & ~Self._hasHandlers,
        ordering: .acquiringAndReleasing)
      if exchanged {
        if state & Self._hasHandlers != 0 { _dropHandlers() }
        return .accepted
      }
      state = original
    }
  }

  /// Marks the run delivered; `false` when it was cancelled (or, impossibly, delivered) first.
  @inlinable
  func _markDelivered() -> Bool {
    var state = _state.load(ordering: .acquiring)
    while state & (Self._cancelled | Self._delivered) == 0 {
      let (exchanged, original) = _state.compareExchange(
        expected: state, desired: state | Self._delivered, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      state = original
    }
    return false
  }

  /// Registers what the task invoked at `generation` does when the run is cancelled.
  ///
  /// Under the handlers' lock, the registration first sets `_hasHandlers` and reads the generation in that one
  /// atomic step. A claim that came before it has moved the generation on, so the handler of a completed task is
  /// ignored; a claim that comes after it sees the bit and drops the list under the same lock, after this
  /// registration. Either way a handler of a completed task is never added to the next one's list.
  @usableFromInline
  func _onCancel(_ handler: @escaping @Sendable () -> Void, generation: Int) {
    enum Registration { case registered, completed, stopped }
    let registration = withCancelHandlers { handlers -> Registration in
      let state = _state.bitwiseOr(Self._hasHandlers, ordering: .acquiringAndReleasing).oldValue
      guard state >> Self._generationShift == generation else { return .completed }  // completed: nothing to cancel
      return handlers.register(handler) ? .registered : .stopped
    }
    if registration == .stopped { handler() }  // the run was already cancelled: run it at once
  }

  /// Runs `body` with the cancel handlers locked.
  func withCancelHandlers<Result: Sendable>(_ body: (inout CancelHandlers) -> Result) -> Result {
    cancelHandlers.withLock(body)
  }

  /// Forgets the handlers of a task that has completed.
  @usableFromInline
  func _dropHandlers() {
    let dropped = withCancelHandlers { $0.take() }
    withExtendedLifetime(dropped) {}  // released here, with the lock no longer held
  }
}

// MARK: - Stopping a child run the way its parent was stopped (`_TaskRun`)

extension RunHandle {
  /// Stops this run the way its parent was stopped.
  func stop(_ mode: _StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: _interrupt()
    }
  }
}

// MARK: - The waiting segments the handle links, so that `cancel()` can take their stages (`_Waiter`)

extension RunHandle {
  /// Links `waiter`, whose hold of a segment's stages outlives the frame that made it, so that `cancel()` can take
  /// them; `false`, and nothing linked, once the run is cancelled, when the waiter must keep nothing.
  @usableFromInline
  func _park(_ waiter: _Waiter) -> Bool {
    withCancelHandlers { handlers in
      // `cancel()` sets the bit before it takes the lock to take the list: if it is clear here, that comes after.
      guard !_isCancelled else { return false }
      handlers.park(Unmanaged.passUnretained(waiter))
      return true
    }
  }

  /// Unlinks `waiter` as it is freed (it was still in the list).
  func _unlink(_ waiter: _Waiter) {
    withCancelHandlers { $0.unlink(Unmanaged.passUnretained(waiter)) }
  }
}

// MARK: - Joins: direct near where the run last passed the trampoline's check, else a hop (`Trampoline.swift`)

extension RunHandle {
  /// Whether this thread's stack is at most `_joinWindow` below where a join of this run last passed the check.
  @inlinable
  @inline(__always)
  var _isNearCheckedStack: Bool {
    let hint = _stackHint.load(ordering: .relaxed)
    let here = _currentStackAddress()
    return here <= hint && hint &- here < _joinWindow
  }

  /// Starts `work` where chains join: directly near where the last check of this run passed, otherwise through a
  /// hop, remembering this place when the check passes.
  @inlinable
  @inline(__always)
  func _join(_ now: () -> Void, _ later: () -> () -> Void) {
    if _isNearCheckedStack { return now() }
    switch _hopMode() {
    case .call:
      _stackHint.store(_currentStackAddress(), ordering: .relaxed)
      now()
    case .enter:
      _stackHint.store(_currentStackAddress(), ordering: .relaxed)
      now()
      _drainHops()
    case .enqueue:
      _enqueueHop(later())
    }
  }
}
