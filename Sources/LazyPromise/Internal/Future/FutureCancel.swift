import Synchronization

// The work a future stops when cancelled lives in its state machine's claim word (`_FutureStateMachine`): the
// address of a `RunHandle` the future holds one reference to — the run `start()` began, or a handle made for the
// handlers a resolver registers — set only while the future is unclaimed. Claiming the future (to complete or to
// cancel it) freezes it, so the claim, the cancel and the registration are decided on that one word.

extension Future {
  /// The handle whose address the claim word `bits` holds, or `nil`; the future keeps its reference.
  @inlinable
  static func _handle(_ bits: UInt) -> RunHandle? {
    let address = bits & _FutureStateMachine.workMask
    guard address != 0 else { return nil }
    return Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
  }

  /// Completes the future with `error` unless it is completed, stopping its work first.
  @inlinable
  func _cancel(with error: E) {
    _cancelling(with: error).run()
  }

  /// Completes the future with `error` unless it is completed, stopping its work first; returns its observers,
  /// ready to run.
  @inlinable
  func _cancelling(with error: E) -> _FutureNodeList {
    var work: UInt = 0
    let action = _state.cancel(work: &work, storing: { _result = .failure(error) })
    guard case .deliver(let stack) = action else { return .empty }  // already completed: nothing to do
    Self._handle(work)?.cancel()
    return _FutureNodeList.delivering(Result<T, E>.failure(error), to: stack)
  }

  /// A stage's callback returned this very future to complete it with (Promises/A+ 2.3.1): it would wait for itself
  /// forever. Reported in debug builds; cancelled where the error type can say "cancelled", else left pending.
  /// Returns its observers, ready to run.
  @usableFromInline
  func _waitingForItself() -> _FutureNodeList {
    #if DEBUG
      PromiseDiagnostics.report(PromiseDiagnostic(kind: .futureWaitsForItself, site: PromiseDiagnostic.unknownSite))
    #endif
    guard let error = cancelledError(E.self) else { return .empty }
    return _cancelling(with: error)
  }

  /// Makes `handle` the work `cancel()` stops (the run `start()` began), unless the future is already completed.
  func attachWork(_ handle: RunHandle) {
    let bits = UInt(bitPattern: Unmanaged.passRetained(handle).toOpaque())
    let (exchanged, _) = _state.claim.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    if !exchanged { Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
  }

  /// Registers a resolver's cancel handler; see `Resolver.onCancel`.
  @usableFromInline
  func _onCancel(_ handler: @escaping @Sendable () -> Void) {
    var current = _state.claim.load(ordering: .acquiring)
    while true {
      if current & _FutureStateMachine.cancelledBit != 0 { return handler() }  // cancelled: stop now
      // A handle: `cancel()` will cancel it, or, once the future is completed, it keeps this handler unrun until
      // the future is freed.
      if let handle = Self._handle(current) { return handle._onCancel(handler, generation: 0) }
      if current & _FutureStateMachine.claimedBit != 0 { return }  // completed otherwise: the handler never runs
      let handle = RunHandle()
      let made = UInt(bitPattern: Unmanaged.passRetained(handle).toOpaque())
      let (exchanged, original) = _state.claim.compareExchange(
        expected: current, desired: made, ordering: .acquiringAndReleasing)
      if exchanged { return handle._onCancel(handler, generation: 0) }
      Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: made)!).release()
      current = original
    }
  }

  /// Releases the work handle, if any; called from `deinit`. A resolver's completion leaves the handle alone: its
  /// handlers can no longer run (`cancel()` on a completed future does nothing) and are released here, with the
  /// future. Dropping them at completion cost every `Future` chain an allocation per run (`Future.map.1` to
  /// `.1000`, measured with `check-allocations.sh`): the check alone, inlined into `complete`, changed how
  /// the compiler optimized the chain around it.
  func releaseWork() {
    let address = _state.claim.load(ordering: .acquiring) & _FutureStateMachine.workMask
    if address != 0 { Unmanaged<RunHandle>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release() }
  }
}
