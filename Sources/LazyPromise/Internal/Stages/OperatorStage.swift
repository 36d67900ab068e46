// The stage behind the operators that own work of their own while the run waits — `timeout`, `retry`, `delay`,
// the combinators: a task stage that sees how its run was stopped (`_TaskRun`).

extension Promise {
  /// Runs this promise under `handle`, which the caller made (and may already have handed to a canceller).
  ///
  /// Starting a child run from inside a parent's stage joins chains at run time, so it goes through the
  /// trampoline: operators nested any number of times stay within bounded stack.
  @inlinable
  func _run(under handle: RunHandle, _ completion: @escaping Completion) {
    _source.start(handle, joining: true) { admission in
      { result in
        if admission.admit(handle) && handle._markDelivered() { completion(result) }
      }
    }
    withExtendedLifetime(self) {}  // as in `run(_:)`: `self` owns the stage `_source` refers to
  }

  /// A promise whose task is one of the library's operators over this promise: it is told how its run was
  /// stopped, and is given this promise to run as a child.
  func operatorStage<U, F: Error>(
    _ task: @escaping @Sendable (_ upstream: Promise<T, E>, _TaskRun, @escaping Promise<U, F>.Completion) -> Void
  ) -> Promise<U, F> {
    Promise<U, F>(_stage: OperatorStage(upstream: self, task: task))
  }

  /// A promise whose task is one of the library's operators with no upstream (a combinator): it is told how its
  /// run was stopped.
  @usableFromInline
  init(_combinator task: @escaping @Sendable (_TaskRun, @escaping Completion) -> Void) {
    self.init(_stage: OperatorStage<Void, Never, T, E>(combinator: task))
  }

  /// Reassembles a promise from the parts a stage keeps of its upstream.
  init(_source: _Source<T, E>, _owner: _AnyStage?) {
    self._source = _source
    self._owner = _owner.map { unsafeDowncast($0, to: _Stage<T, E>.self) }
  }
}

/// An operator's task: like `_CancellableTaskStage`, but its cancel handlers learn whether the run was cancelled
/// or interrupted, so it can stop its child runs the same way.
///
/// An operator over an upstream (`timeout`, `retry`, `delay`) owns it as every stage does (`_AnyStage._owner`), not
/// through the task closure, so a chain of many operators is released iteratively; the task receives the
/// upstream reassembled as a promise. A combinator (`zip`, `all`, `shared()`) has no upstream: its `S` and `F` are
/// `Void` and `Never`, and its task is given none.
final class OperatorStage<S, F: Error, T, E: Error>: _Stage<T, E>, @unchecked Sendable {
  typealias Completion = Promise<T, E>.Completion

  /// The operator's task, with or without an upstream.
  enum Work {
    case overUpstream(_Source<S, F>, @Sendable (Promise<S, F>, _TaskRun, @escaping Completion) -> Void)
    case combinator(@Sendable (_TaskRun, @escaping Completion) -> Void)
  }

  /// Set until `deinit`, which releases it in bounded stack: a combinator's task holds its input promises, so
  /// nested combinators are a chain of tasks that would otherwise be freed recursively.
  private var work: Work?

  init(
    upstream: Promise<S, F>, task: @escaping @Sendable (Promise<S, F>, _TaskRun, @escaping Completion) -> Void
  ) {
    work = .overUpstream(upstream._source, task)
    super.init(owner: upstream._owner, invoke: { OperatorStage.invoke($0, $1, $2) })
  }

  init(combinator task: @escaping @Sendable (_TaskRun, @escaping Completion) -> Void) where S == Void, F == Never {
    work = .combinator(task)
    super.init(owner: nil, invoke: { OperatorStage.invoke($0, $1, $2) })
  }

  private static func invoke(_ stage: _Stage<T, E>, _ handle: RunHandle, _ completion: @escaping Completion) {
    let this = unsafeDowncast(stage, to: OperatorStage<S, F, T, E>.self)
    let run = _TaskRun(handle: handle, generation: handle._generation)
    let task: Promise<T, E>.AsyncTask
    switch this.work {
    case .overUpstream(let source, let operation):
      let upstream = Unchecked(Promise(_source: source, _owner: this._owner?.takeUnretainedValue()))
      task = { completion in operation(upstream.value, run, completion) }
    case .combinator(let operation):
      task = { completion in operation(run, completion) }
    case nil:
      fatalError("Internal inconsistency: an operator stage ran after deinit")
    }
    _Source<T, E>.task(task, operatorSite).start(handle, passingTo: completion)
  }

  deinit {
    // `releaseInBoundedStack`, written out for a property holding functions (see there).
    _hop(
      { work = nil },
      {
        let deferred = work
        return { withExtendedLifetime(deferred) {} }
      })
  }
}

/// The site diagnostics name for an operator's own task (which completes exactly once by construction).
let operatorSite = _Site(file: #fileID, line: #line)
