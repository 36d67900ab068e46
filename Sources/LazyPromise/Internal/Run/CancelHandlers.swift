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
  /// The holds of the fused segments that wait for an input, innermost first, linked through `_StageHold.below`:
  /// what `cancel()` lets go of, so that a completion handler a task keeps after the run was cancelled reaches no
  /// stage (contract 6.6). Never run, and never moved by `take(stopping:)`: only `cancel()` takes them.
  private var holds: _StageHold?

  init() {}

  /// Whether no handler is registered.
  var isEmpty: Bool { first == nil }

  /// Links `hold`, which a segment about to wait has just made, in as the innermost wait. Holds whose input has
  /// arrived since are unlinked first: waits end innermost first, so they are the ones on top.
  mutating func park(_ hold: _StageHold) {
    while let top = holds, top.isEmpty { holds = top.below.take() }
    hold.below = holds
    holds = hold
  }

  /// Unlinks every hold, for `cancel()` (or the handle's `deinit`) to empty outside the lock.
  mutating func takeHolds() -> _StageHold? {
    holds.take()
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
  consuming func run() {
    guard let first else { return }
    let rest = rest
    _hop(
      {
        first()
        for handler in rest { handler() }
      },
      {
        {
          first()
          for handler in rest { handler() }
        }
      })
  }
}
