/// The cancel handlers a run's pending task registered, and whether the run has been stopped.
///
/// Why this is safe: the list lives inside its `RunHandle`, under the handle's `Mutex`, and is only ever read or
/// changed with that lock held. Every caller that touches it — a task registering a handler, the completion that
/// claims the run and drops the handlers, `cancel()` and the cooperative interrupt that take them, the handle's
/// `deinit` — reaches it through a strong reference to the handle, so the lock and the list cannot be freed while
/// one of them runs, and nothing ever holds a reference into the list without the lock (there is no unretained
/// borrow, and no node that one thread may free while another reads it). A handler is owned by the list from the
/// moment it is registered until one of three things moves it out under the lock: the task's completion is
/// claimed (the handlers are dropped, unrun), the run is stopped (they are run, once, by whoever stopped it), or
/// the handle is freed (they are released). Handlers are run and released only after the lock is released, so a
/// handler may cancel, register or complete on this very run. A registration reads the run's generation under
/// the lock, after any completion that claimed the run has dropped the list under the same lock, so a handler
/// of a task that has completed is never added to the next task's list.
struct CancelHandlers {
  /// Set once the run is cancelled or interrupted: from then on a handler runs as soon as it is registered.
  private(set) var isStopped = false
  /// The first handler, stored inline: most tasks register at most one, so most lists allocate nothing.
  private var first: (@Sendable () -> Void)?
  /// The handlers after the first, in registration order.
  private var rest: [@Sendable () -> Void] = []
  /// The waiters of the fused segments that wait for an input while holding stages, innermost first, linked
  /// through `_Waiter.below` and not owned (`Stages/Waiter.swift`): what `cancel()` takes the stages of, so that a
  /// completion handler a task keeps after the run was cancelled reaches no stage (contract 6.6). A waiter in the
  /// list is alive, or blocked in its `deinit` on this lock until it is unlinked.
  private var waiters: Unmanaged<_Waiter>?

  init() {}

  /// Whether no handler is registered.
  var isEmpty: Bool { first == nil }

  /// Links `waiter`, which a segment about to wait has just made, in as the innermost wait. Waiters whose input
  /// has arrived since are unlinked first: waits end innermost first, so they are the ones on top.
  mutating func park(_ waiter: Unmanaged<_Waiter>) {
    while let top = waiters, top._withUnsafeGuaranteedRef({ $0.isEmpty }) {
      waiters = top._withUnsafeGuaranteedRef { unlinked($0) }
    }
    waiter._withUnsafeGuaranteedRef {
      $0.below = waiters
      $0.linked.store(true, ordering: .releasing)
    }
    waiters = waiter
  }

  /// Unlinks `waiter`, which is being freed.
  mutating func unlink(_ waiter: Unmanaged<_Waiter>) {
    guard waiter._withUnsafeGuaranteedRef({ $0.linked.load(ordering: .acquiring) }) else { return }
    if waiters?.toOpaque() == waiter.toOpaque() {
      waiters = waiter._withUnsafeGuaranteedRef { unlinked($0) }
      return
    }
    var above = waiters
    while let current = above {
      let next = current._withUnsafeGuaranteedRef { $0.below }
      if next?.toOpaque() == waiter.toOpaque() {
        current._withUnsafeGuaranteedRef { $0.below = waiter._withUnsafeGuaranteedRef { unlinked($0) } }
        return
      }
      above = next
    }
  }

  /// Unlinks every waiter and takes the stages they hold, for `cancel()` to release outside the lock.
  mutating func takeWaitingStages() -> [_AnyStage] {
    var stages: [_AnyStage] = []
    while let top = waiters {
      waiters = top._withUnsafeGuaranteedRef { waiter in
        if let stage = waiter.takeForCancel() { stages.append(stage) }
        return unlinked(waiter)
      }
    }
    return stages
  }

  /// Marks `waiter` out of the list; returns the one below it.
  private func unlinked(_ waiter: _Waiter) -> Unmanaged<_Waiter>? {
    let below = waiter.below
    waiter.below = nil
    waiter.linked.store(false, ordering: .releasing)
    return below
  }

  /// Adds `handler`; `false` (and nothing added) once the run is stopped, when the caller must run it itself.
  mutating func register(_ handler: @escaping @Sendable () -> Void) -> Bool {
    guard !isStopped else { return false }
    if first == nil {
      first = handler
    } else {
      rest.append(handler)
    }
    return true
  }

  /// Takes the handlers out of the list, leaving it empty (and, if `stopping`, marked stopped).
  mutating func take(stopping: Bool = false) -> CancelHandlers {
    if stopping { isStopped = true }
    guard first != nil else { return CancelHandlers() }
    var taken = CancelHandlers()
    swap(&taken.first, &first)
    swap(&taken.rest, &rest)
    return taken
  }

  /// Runs the handlers in registration order, through the trampoline: a handler that cancels another run
  /// (as nested operators and combinators do) does not grow the stack with the nesting depth.
  ///
  /// `owner`, the handle whose handlers these are, is kept alive while they wait on the trampoline: a handler may
  /// refer to it unowned (`_TaskRun.onStop`).
  consuming func run(keeping owner: AnyObject) {
    guard let first else { return }
    let rest = rest
    guard !rest.isEmpty else {
      return _hop(first, { { withExtendedLifetime(owner) { first() } } })
    }
    let handlers = [first] + rest
    // Each call holds `owner`, so a rest of the list queued behind a handler (`_forEachInOrder`) keeps it too.
    let call: (@Sendable () -> Void) -> Void = { handler in withExtendedLifetime(owner) { handler() } }
    _hop({ _forEachInOrder(handlers[...], call) }, { { _forEachInOrder(handlers[...], call) } })
  }
}
