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
  // The run's state word; its layout is in `Internal/Run/RunState.swift`.
  @usableFromInline let _state: Atomic<Int>
  // Where on some thread's stack a join of this run last passed the trampoline's check; see `_isNearCheckedStack`.
  @usableFromInline let _stackHint: Atomic<UInt>
  // The pending task's cancel handlers, under a lock of their own; see `CancelHandlers` for why this is safe.
  let cancelHandlers: _Lock<CancelHandlers>

  @usableFromInline
  init() {
    _state = Atomic(0)
    _stackHint = Atomic(0)
    cancelHandlers = _Lock(CancelHandlers())
  }

  deinit {
    // A handler can hold another run (a combinator's input, an operator's child), whose handle holds more: release
    // them in bounded stack, so that dropping a deeply nested run cannot overflow it.
    var handlers: CancelHandlers? = withCancelHandlers { $0.take() }
    if handlers?.isEmpty == false { releaseInBoundedStack(&handlers) }
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
        let (handlers, stages) = withCancelHandlers { ($0.take(stopping: true), $0.takeWaitingStages()) }
        withExtendedLifetime(stages) {}  // the waiting segments' stages, released here, outside the lock
        handlers.run(keeping: self)
        return
      }
      state = original
    }
  }
}
