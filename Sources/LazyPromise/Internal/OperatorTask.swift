import Synchronization

// The machinery behind the operators that own work of their own while the run waits — `timeout`, `retry`,
// `delay`, the async bridge: a task stage that sees how its run was stopped, child runs that follow their parent,
// and a once-only gate for the two sides (timer, upstream) that race to complete the task.

/// How a run asked its pending task to stop.
enum _StopMode: Sendable {
  /// `RunHandle.cancel()`: the task's result will be ignored and no further stage starts.
  case cancel
  /// Cooperative cancellation (`RunHandle._interrupt()`): the task should finish early; what it then delivers is
  /// delivered.
  case interrupt
}

extension RunHandle {
  /// Stops this run the way its parent was stopped.
  func _stop(_ mode: _StopMode) {
    switch mode {
    case .cancel: cancel()
    case .interrupt: _interrupt()
    }
  }
}

/// A pending operator task's view of its run.
struct _TaskRun: Sendable {
  let handle: RunHandle
  let generation: Int

  /// Registers `handler` to run if the run is stopped while this task is pending (at once if it already was).
  func onStop(_ handler: @escaping @Sendable (_StopMode) -> Void) {
    let handle = handle
    handle._onCancel({ handler(handle._isCancelled ? .cancel : .interrupt) }, generation: generation)
  }

  /// A handle for a child run that follows this one: stopping this run stops the child the same way.
  func makeChild() -> RunHandle {
    let child = RunHandle()
    onStop { mode in child._stop(mode) }
    return child
  }
}

extension Promise {
  /// Runs this promise under `handle`, which the caller made (and may already have handed to a canceller).
  ///
  /// Starting a child run from inside a parent's stage joins chains at run time, so it goes through the
  /// trampoline: operators nested any number of times stay within bounded stack.
  func _run(_ handle: RunHandle, _ completion: @escaping Completion) {
    _source.subscribe(handle, joining: true) { admission in
      { result in
        if admission.admit(handle) && handle._deliver() { completion(result) }
      }
    }
  }

  /// A promise whose task is one of the library's operators over this promise: it is told how its run was
  /// stopped, and is given this promise to run as a child.
  func _operator<U, F: Error>(
    _ task: @escaping @Sendable (_ upstream: Promise<T, E>, _TaskRun, @escaping Promise<U, F>.Completion) -> Void
  ) -> Promise<U, F> {
    Promise<U, F>(_stage: _OperatorStage(upstream: self, task: task))
  }

  /// A promise whose task is one of the library's operators with no upstream (a combinator): it is told how its
  /// run was stopped.
  init(_operator task: @escaping @Sendable (_TaskRun, @escaping Completion) -> Void) {
    self = Promise<Void, Never>(value: ())._operator { _, run, completion in task(run, completion) }  // never runs it
  }

  /// Reassembles a promise from the parts a stage keeps of its upstream.
  init(_source: _Source<T, E>, _owner: _Link?) {
    self._source = _source
    self._owner = _owner.map { unsafeDowncast($0, to: _Stage<T, E>.self) }
  }
}

/// An operator's task: like `_CancellableTaskStage`, but its cancel handlers learn whether the run was cancelled
/// or interrupted, so it can stop its child runs the same way.
///
/// It owns its upstream as every stage does (`_Link._owner`), not through the task closure, so a chain of many
/// operators is released iteratively; the task receives the upstream reassembled as a promise.
final class _OperatorStage<S, F: Error, T, E: Error>: _Stage<T, E>, @unchecked Sendable {
  typealias Task = @Sendable (Promise<S, F>, _TaskRun, @escaping Promise<T, E>.Completion) -> Void

  let upstream: _Source<S, F>
  /// Set until `deinit`, which releases it in bounded stack: a combinator's task holds its input promises, so
  /// nested combinators are a chain of tasks that would otherwise be freed recursively.
  private var task: Task?

  init(upstream: Promise<S, F>, task: @escaping Task) {
    self.upstream = upstream._source
    self.task = task
    super.init(owner: upstream._owner) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _OperatorStage<S, F, T, E>.self)
      let upstream = _Unchecked(Promise(_source: this.upstream, _owner: this._owner))
      guard let task = this.task else { fatalError("Internal inconsistency: an operator stage ran after deinit") }
      let run = _TaskRun(handle: handle, generation: handle._generation)
      _Source<T, E>.task({ completion in task(upstream.value, run, completion) }, _operatorSite)
        .subscribe(handle, passingTo: completion)
    }
  }

  deinit {
    // `_releaseInBoundedStack`, written out for a function-typed property (see there).
    _hop(
      { task = nil },
      {
        let deferred = task
        return { withExtendedLifetime(deferred) {} }
      })
  }
}

/// The site diagnostics name for an operator's own task (which completes exactly once by construction).
let _operatorSite = _Site(file: #fileID, line: #line)

/// Lets exactly one of several racing sides through.
final class _Once: Sendable {
  private let passed = Atomic<Bool>(false)

  /// `true` for the first caller only.
  func claim() -> Bool {
    !passed.exchange(true, ordering: .acquiringAndReleasing)
  }
}

/// A value the library moves between threads where the compiler cannot see that doing so is safe:
///
/// - a result handed from the stage that produced it to the stage that consumes it, exactly once (like a
///   `sending` parameter: the producer never touches it again) — which is why a promise of a non-`Sendable` value
///   may still hop threads inside one run, as its tasks' results always have;
/// - a promise an operator runs (again) from another thread: a promise is immutable, and running it from the
///   thread a result arrived on is what every stage does;
/// - a thread-safe object from a module without `Sendable` annotations (a Dispatch source).
struct _Unchecked<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
