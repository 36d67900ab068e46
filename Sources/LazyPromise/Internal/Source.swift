/// Where a promise's result comes from: a caller's task closure, or a stage of the library's own.
///
/// A stage is referenced without ownership here: its owner is the promise (`Promise._owner`) or the next
/// stage (`_Link._owner`), which keeps the hot path free of reference counting.
@usableFromInline
enum _Source<T, E: Error>: @unchecked Sendable {
  case task(Promise<T, E>.AsyncTask, _Site)
  case stage(Unmanaged<_Stage<T, E>>)

  /// Starts this source for `handle`; `completion` receives its result exactly once, unless the run is
  /// cancelled first.
  @inlinable
  func subscribe(_ handle: RunHandle, _ completion: @escaping @Sendable (Result<T, E>) -> Void) {
    switch self {
    case .task(let task, let site):
      _invokeTask(task, site: site, handle: handle, completion: completion)
    case .stage(let unmanaged):
      let stage = unmanaged.takeUnretainedValue()
      _hop({ stage._invoke(stage, handle, completion) }, { { stage._invoke(stage, handle, completion) } })
    }
  }
}

/// Invokes a caller's task with a completion handler that accepts exactly one call.
///
/// A second call is ignored and, in debug builds, reported with the promise's creation site; so is a handler
/// released without ever being called.
@inlinable
func _invokeTask<T, E: Error>(
  _ task: Promise<T, E>.AsyncTask, site: _Site, handle: RunHandle,
  completion: @escaping @Sendable (Result<T, E>) -> Void
) {
  guard !handle._isCancelled else { return }
  let generation = handle._generation
  #if DEBUG
    let witness = _CompletionWitness(handle: handle, generation: generation, site: site)
  #endif
  task { result in
    #if DEBUG
      withExtendedLifetime(witness) {}
    #endif
    switch handle._claim(generation) {
    case .accepted:
      _deliver(result, to: completion)
    case .cancelled:
      break
    case .duplicate:
      #if DEBUG
        PromiseDiagnostics.report(.completedMoreThanOnce, site: site)
      #endif
    }
  }
}

#if DEBUG
  /// Lives as long as a task's completion handler; reports a handler released without being called.
  @usableFromInline
  final class _CompletionWitness: Sendable {
    @usableFromInline let handle: RunHandle
    @usableFromInline let generation: Int
    @usableFromInline let site: _Site

    @inlinable
    init(handle: RunHandle, generation: Int, site: _Site) {
      self.handle = handle
      self.generation = generation
      self.site = site
    }

    deinit {
      if !handle._isCancelled && handle._generation == generation {
        PromiseDiagnostics.report(.completionReleasedWithoutBeingCalled, site: site)
      }
    }
  }
#endif
