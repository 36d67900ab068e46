import Synchronization

/// A run of a promise: returned by `run`, it cancels that run.
///
/// `cancel()` is idempotent and thread-safe. After it returns, no further stage of the run starts, the cancel
/// handlers the pending task registered have run, and the run's handlers are never called: each run either
/// delivers exactly once or is cancelled, never both. Cancelling a run that has already delivered does nothing.
///
/// ```swift
/// let handle = lookup(id: "909253").then(decode).run(some: show, none: report)
/// // later, from any thread:
/// handle.cancel()
/// ```
public final class RunHandle: Sendable {
  // Bit 0: cancelled. Bit 1: delivered. Bits 2...: how many task completions this run has accepted.
  @usableFromInline let _state: Atomic<Int>
  // The pending task's cancel handlers, under a lock of their own; see `_CancelHandlers` for why this is safe.
  private let _handlers: Mutex<_CancelHandlers>
  // Read at the start and written at the end of every critical section of `_handlers`; see `_withHandlers`.
  private let _handlersWitness: Atomic<Int>

  @usableFromInline static let _cancelled = 1
  @usableFromInline static let _delivered = 2
  @usableFromInline static let _generationStep = 4

  @usableFromInline
  init() {
    _state = Atomic(0)
    _handlers = Mutex(_CancelHandlers())
    _handlersWitness = Atomic(0)
  }

  deinit {
    // A handler can hold another run (a combinator's input, an operator's child), whose handle holds more: release
    // them in bounded stack, so that dropping a deeply nested run cannot overflow it.
    var handlers: _CancelHandlers? = _withHandlers { $0.take() }
    if handlers?.isEmpty == false { _releaseInBoundedStack(&handlers) }
  }

  /// Whether `cancel()` has been called before the run delivered.
  ///
  /// ```swift
  /// let handle = promise.run { _ in }
  /// handle.cancel()
  /// assert(handle.isCancelled || handle.isDelivered)
  /// ```
  public var isCancelled: Bool { _isCancelled }

  /// Whether the run has delivered its result to its handler.
  ///
  /// ```swift
  /// let handle = Promise<Int, Never>(value: 1).run { _ in }
  /// assert(handle.isDelivered)  // a synchronous chain delivers before `run` returns
  /// ```
  public var isDelivered: Bool { _state.load(ordering: .acquiring) & Self._delivered != 0 }

  /// Cancels the run: no further stage starts, the pending task's cancel handlers run, and the run's handlers
  /// are not called. Does nothing if the run has already delivered or was already cancelled.
  ///
  /// The cancel handlers run on the calling thread, before `cancel()` returns, with no lock held. (Called from
  /// deep inside a synchronous chain, past the trampoline's stack budget, they run when the chain's outermost
  /// step returns instead, like every other step queued there.)
  ///
  /// ```swift
  /// let handle = slowLookup.run(some: show, none: report)
  /// handle.cancel()  // `show` and `report` will not be called
  /// ```
  public func cancel() {
    var state = _state.load(ordering: .acquiring)
    while state & (Self._cancelled | Self._delivered) == 0 {
      let (exchanged, original) = _state.compareExchange(
        expected: state, desired: state | Self._cancelled, ordering: .acquiringAndReleasing)
      if exchanged {
        _withHandlers { $0.take(stopping: true) }.run()
        return
      }
      state = original
    }
  }

  /// Asks the run to stop cooperatively: the pending task's cancel handlers run now, and so does every handler a
  /// task of this run registers later (at once) — but nothing is suppressed: stages still start and the run still
  /// delivers whatever its tasks deliver. Calling it again does nothing.
  ///
  /// This is Swift's cooperative cancellation, used where a run cannot end with a value of its own (an awaited
  /// promise whose error type cannot say "cancelled"); `cancel()` after it still suppresses delivery.
  func _interrupt() {
    _withHandlers { $0.take(stopping: true) }.run()
  }

  @inlinable
  var _isCancelled: Bool { _state.load(ordering: .relaxed) & Self._cancelled != 0 }

  /// How many task completions this run has accepted; a task invoked now completes generation `_generation`.
  @inlinable
  var _generation: Int { _state.load(ordering: .acquiring) >> 2 }

  /// The outcome of a task's call to its completion handler.
  @usableFromInline enum _Claim { case accepted, cancelled, duplicate }

  /// Accepts the completion of the task that was invoked at `generation`, exactly once.
  @inlinable
  func _claim(_ generation: Int) -> _Claim {
    var state = _state.load(ordering: .acquiring)
    while true {
      if state & Self._cancelled != 0 { return .cancelled }
      if state >> 2 != generation { return .duplicate }
      let (exchanged, original) = _state.compareExchange(
        expected: state, desired: state &+ Self._generationStep, ordering: .acquiringAndReleasing)
      if exchanged {
        _dropHandlers()
        return .accepted
      }
      state = original
    }
  }

  /// Marks the run delivered; `false` when it was cancelled (or, impossibly, delivered) first.
  @inlinable
  func _deliver() -> Bool {
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
  /// The generation is read under the handlers' lock: a completion that claimed the run has already dropped the
  /// list under that lock by then, so a handler of a completed task is ignored rather than added to the next one's.
  @usableFromInline
  func _onCancel(_ handler: @escaping @Sendable () -> Void, generation: Int) {
    enum Registration { case registered, completed, stopped }
    let registration = _withHandlers { handlers -> Registration in
      guard _generation == generation else { return .completed }  // that task has completed: nothing to cancel
      return handlers.register(handler) ? .registered : .stopped
    }
    if registration == .stopped { handler() }  // the run was already cancelled: run it at once
  }

  /// Runs `body` with the cancel handlers locked.
  ///
  /// The acquiring load and the releasing store of `_handlersWitness` order nothing the lock does not already
  /// order; they make that order visible to the thread sanitizer. On Linux a contended `Mutex` waits in the
  /// standard library's futex code, which is not instrumented, so without them the sanitizer reports two critical
  /// sections of the same lock as a race. They cost two plain moves on x86-64 (and `ldar`/`stlr` on arm64).
  private func _withHandlers<Result: Sendable>(_ body: (inout _CancelHandlers) -> Result) -> Result {
    _handlers.withLock { handlers in
      _ = _handlersWitness.load(ordering: .acquiring)
      defer { _handlersWitness.store(0, ordering: .releasing) }
      return body(&handlers)
    }
  }

  /// Forgets the handlers of a task that has completed.
  @usableFromInline
  func _dropHandlers() {
    let dropped = _withHandlers { $0.take() }
    withExtendedLifetime(dropped) {}  // released here, with the lock no longer held
  }
}
