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
  /// The waiters of the fused segments whose wait for an input outlived the frame that made them, last linked
  /// first, linked both ways through `_Waiter.below` and `_Waiter.above` and not owned (`Stages/Waiter.swift`): what
  /// `cancel()` takes the stages of, so that a completion handler a task keeps after the run was cancelled reaches no
  /// stage (contract 6.6). A waiter in the list is alive, or blocked in its `deinit` on this lock until it is
  /// unlinked.
  private var waiters: Unmanaged<_Waiter>?

  init() {}

  /// Whether no handler is registered.
  var isEmpty: Bool { first == nil }

  /// Links `waiter` on top. Waiters on top whose input has arrived since are unlinked first, which keeps the list as
  /// short as the waits that are still pending in the common case, where a wait ends before the next one begins.
  mutating func park(_ waiter: Unmanaged<_Waiter>) {
    while let top = waiters, top._withUnsafeGuaranteedRef({ $0.isEmpty }) {
      waiters = top._withUnsafeGuaranteedRef { unlinked($0) }
    }
    waiter._withUnsafeGuaranteedRef {
      $0.below = waiters
      $0.linked.store(true, ordering: .releasing)
    }
    waiters?._withUnsafeGuaranteedRef { $0.above = waiter }
    waiters = waiter
  }

  /// Unlinks `waiter`, which is being freed: in constant time, wherever it is in the list.
  mutating func unlink(_ waiter: Unmanaged<_Waiter>) {
    waiter._withUnsafeGuaranteedRef { waiter in
      guard waiter.linked.load(ordering: .acquiring) else { return }
      let above = waiter.above
      let below = unlinked(waiter)
      if let above {
        above._withUnsafeGuaranteedRef { $0.below = below }
      } else {
        waiters = below
      }
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

  /// Marks `waiter` out of the list, and the one below it as now below the one above; returns the one below.
  private func unlinked(_ waiter: _Waiter) -> Unmanaged<_Waiter>? {
    let below = waiter.below
    below?._withUnsafeGuaranteedRef { $0.above = waiter.above }
    waiter.below = nil
    waiter.above = nil
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
