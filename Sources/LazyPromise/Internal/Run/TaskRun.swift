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

extension RunHandle {
  /// Stops this run the way its parent was stopped.
  func stop(_ mode: _StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: _interrupt()
    }
  }
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
