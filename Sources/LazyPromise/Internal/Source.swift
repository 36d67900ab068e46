/// Where a promise's result comes from: a result known when the promise was made, a caller's task closure, or
/// a stage of the library's own.
///
/// A known result is stored inline, so `Promise(value:)` allocates nothing — which is what lets a `then`
/// closure that produces a plain value (through ``ThenBuilder``) cost no more than `map`. A stage is referenced
/// without ownership here: its owner is the promise (`Promise._owner`) or the next stage (`_Link._owner`), which
/// keeps the hot path free of reference counting.
@usableFromInline
enum _Source<T, E: Error>: @unchecked Sendable {
  case result(Result<T, E>)
  case task(Promise<T, E>.AsyncTask, _Site)
  case stage(Unmanaged<_Stage<T, E>>)

  /// Starts this source for `handle`, delivering to the continuation `makeContinuation` builds.
  ///
  /// The continuation must first ask its `_Admission` to admit the result: a caller's task may call its
  /// completion handler twice, or after the run was cancelled, and only the admitted call may go on. Building
  /// the check into the stage's own continuation (rather than wrapping it) saves an allocation per task.
  ///
  /// - Parameter joining: `true` where chains join at run time (a `flatMap` running the promise its function
  ///   returned): the call always goes through the trampoline, since joins can repeat without bound.
  @inlinable
  func subscribe(
    _ handle: RunHandle,
    joining: Bool = false,
    _ makeContinuation: (_Admission) -> @Sendable (Result<T, E>) -> Void
  ) {
    switch self {
    case .result(let result):
      guard !handle._isCancelled else { return }
      let continuation = makeContinuation(.trusted)
      if joining {
        _hop({ continuation(result) }, { { continuation(result) } })
      } else {
        continuation(result)
      }
    case .task(let task, let site):
      guard !handle._isCancelled else { return }
      task(makeContinuation(_Admission(handle: handle, site: site)))
    case .stage(let unmanaged):
      Self._start(unmanaged, handle, joining: joining, makeContinuation(.trusted))
    }
  }

  /// Starts the stage `unmanaged` for `handle`, delivering to `continuation`: directly, or through the trampoline
  /// on the stages that hop (and where chains join).
  @inlinable
  @inline(__always)
  static func _start(
    _ unmanaged: Unmanaged<_Stage<T, E>>, _ handle: RunHandle, joining: Bool,
    _ continuation: @escaping @Sendable (Result<T, E>) -> Void
  ) {
    unmanaged._withUnsafeGuaranteedRef { stage in
      if joining || stage._hops {
        // A `let`, not an assignment to the captured one: the escaping `later` closure would box a variable.
        let continuation = stage._depth % _relayInterval == 0 ? _Relay.wrapping(continuation) : continuation
        _hop({ stage._invoke(stage, handle, continuation) }, { { stage._invoke(stage, handle, continuation) } })
      } else {
        stage._invoke(stage, handle, continuation)
      }
    }
  }

  /// Starts this source for `handle` where chains join, passing its result on to `completion` unchanged.
  @inlinable
  func subscribe(_ handle: RunHandle, passingTo completion: @escaping @Sendable (Result<T, E>) -> Void) {
    subscribe(handle, joining: true) { admission in
      if admission.isTrusted { return completion }
      return { result in
        if admission.admit(handle) { _deliver(result, to: completion) }
      }
    }
  }
}

/// Decides whether a result reaching a continuation may go on: always for the library's own stages; exactly
/// once, and only while the run is not cancelled, for a caller's task.
@usableFromInline
struct _Admission: Sendable {
  /// The generation of the task's run the result must match, or -1 for a trusted source.
  @usableFromInline let generation: Int
  @usableFromInline let site: _Site
  #if DEBUG
    @usableFromInline let witness: _CompletionWitness?
  #endif

  @inlinable
  static var trusted: _Admission { _Admission() }

  @inlinable
  init() {
    generation = -1
    site = _Site(file: "", line: 0)
    #if DEBUG
      witness = nil
    #endif
  }

  @inlinable
  init(handle: RunHandle, site: _Site) {
    generation = handle._generation
    self.site = site
    #if DEBUG
      witness = _CompletionWitness(handle: handle, generation: generation, site: site)
    #endif
  }

  @inlinable
  var isTrusted: Bool { generation < 0 }

  /// Whether this call of the completion handler is the one that counts.
  @inlinable
  func admit(_ handle: RunHandle) -> Bool {
    if generation < 0 { return true }
    switch handle._claim(generation) {
    case .accepted:
      return true
    case .cancelled:
      return false
    case .duplicate:
      #if DEBUG
        PromiseDiagnostics.report(.completedMoreThanOnce, site: site)
      #endif
      return false
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
