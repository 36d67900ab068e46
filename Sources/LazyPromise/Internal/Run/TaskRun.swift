// How an operator's pending task sees its run: how the run was stopped, and child runs that follow it.

/// How a run asked its pending task to stop.
@usableFromInline
enum _StopMode: Sendable {
  /// `RunHandle.cancel()`: the task's result will be ignored and no further stage starts.
  case cancel
  /// Cooperative cancellation (`RunHandle._interrupt()`): the task should finish early; what it then delivers is
  /// delivered.
  case interrupt
}

/// A pending operator task's view of its run.
@usableFromInline
struct _TaskRun: Sendable {
  let handle: RunHandle
  let generation: Int

  /// Registers `handler` to run if the run is stopped while this task is pending (at once if it already was).
  @usableFromInline
  func onStop(_ handler: @escaping @Sendable (_StopMode) -> Void) {
    // Unowned: the handler lives in the handle's own list, so a strong capture would be a cycle that keeps a run
    // whose task dropped its completion alive for good. The handle runs its handlers itself, or keeps itself alive
    // while they wait on the trampoline (`CancelHandlers.run(keeping:)`).
    unowned(unsafe) let handle = handle
    handle._onCancel({ handler(handle._isCancelled ? .cancel : .interrupt) }, generation: generation)
  }

  /// A handle for a child run that follows this one: stopping this run stops the child the same way.
  func makeChild() -> RunHandle {
    let child = RunHandle()
    onStop { mode in child.stop(mode) }
    return child
  }
}

/// What the stop handler of an operator that runs one child at a time (`retry`, `reduce`) holds: the operator
/// weakly, and its current child run.
///
/// The inputs' tasks hold the operator while they run, so one that drops its completion handler uncalled frees it,
/// and with it the run's completion, rather than a cycle through the run's handle (contract 6.7). The child stays:
/// cancelling the run still runs that task's cancel handlers (7.2).
final class _OneChildStopper<Operator: AnyObject & Sendable>: Sendable {
  private weak let target: Operator?
  private let child = _Lock<RunHandle?>(nil)
  private let stopTarget: @Sendable (Operator, _StopMode) -> Void

  init(_ target: Operator, stop: @escaping @Sendable (Operator, _StopMode) -> Void) {
    self.target = target
    stopTarget = stop
  }

  /// The operator starts `handle`'s run.
  func started(_ handle: RunHandle) {
    let previous = child.withLock { current in
      defer { current = handle }
      return current
    }
    withExtendedLifetime(previous) {}  // released here, with the lock no longer held
  }

  /// Stops the operator if it is alive; otherwise the child it left running.
  func stop(_ mode: _StopMode) {
    if let target {
      stopTarget(target, mode)
    } else {
      child.withLock { $0 }?.stop(mode)
    }
  }
}
