/// Where a promise's result comes from: a result known when the promise was made, a caller's task closure, or
/// a stage of the library's own.
///
/// A known result is stored inline, so `Promise(value:)` allocates nothing — which is what lets a `then`
/// closure that produces a plain value (through ``ThenBuilder``) cost no more than `map`. A stage is referenced
/// without ownership here: its owner is the promise (`Promise._owner`) or the next stage (`_AnyStage._owner`), which
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
  ///   returned), since joins can repeat without bound: a stage is then started through `RunHandle._join` (or
  ///   the trampoline, on the stages that hop) and a known result through the trampoline; a task is called
  ///   directly.
  @inlinable
  func start(
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
      Self.startStageOutOfLine(unmanaged, handle, joining: joining, makeContinuation(.trusted))
    }
  }

  /// `startStage`, out of line: inlined into `start`, its body kept the optimizer from removing the copy that
  /// switching over `self` makes, and every start of a task paid a retain and a release of the task closure.
  @inlinable
  @inline(never)
  static func startStageOutOfLine(
    _ unmanaged: Unmanaged<_Stage<T, E>>, _ handle: RunHandle, joining: Bool,
    _ continuation: @escaping @Sendable (Result<T, E>) -> Void
  ) {
    startStage(unmanaged, handle, joining: joining, continuation)
  }

  /// Starts the stage `unmanaged` for `handle`, delivering to `continuation`: directly, or through the trampoline
  /// on the stages that hop (and where chains join).
  @inlinable
  @inline(__always)
  static func startStage(
    _ unmanaged: Unmanaged<_Stage<T, E>>, _ handle: RunHandle, joining: Bool,
    _ continuation: @escaping @Sendable (Result<T, E>) -> Void
  ) {
    unmanaged._withUnsafeGuaranteedRef { stage in
      if joining || stage._hops {
        // A `let`, not an assignment to the captured one: the escaping `later` closure would box a variable.
        let continuation = stage._depth % UInt32(_relayInterval) == 0 ? _Relay.wrapping(continuation) : continuation
        if stage._hops {
          _hop({ stage._invoke(stage, handle, continuation) }, { { stage._invoke(stage, handle, continuation) } })
        } else {
          handle._join(
            { stage._invoke(stage, handle, continuation) }, { { stage._invoke(stage, handle, continuation) } })
        }
      } else {
        stage._invoke(stage, handle, continuation)
      }
    }
  }

  /// Starts this source for `handle` where chains join, passing its result on to `completion` unchanged.
  @inlinable
  func start(_ handle: RunHandle, passingTo completion: @escaping @Sendable (Result<T, E>) -> Void) {
    start(handle, joining: true) { admission in
      if admission.isTrusted { return completion }
      return { result in
        if admission.admit(handle) { _deliver(result, to: completion) }
      }
    }
  }
}
