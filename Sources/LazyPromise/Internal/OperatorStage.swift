// The stage behind the operators that own work of their own while the run waits — `timeout`, `retry`, `delay`,
// the combinators: a task stage that sees how its run was stopped (`_TaskRun`).

extension Promise {
  /// Runs this promise under `handle`, which the caller made (and may already have handed to a canceller).
  ///
  /// Starting a child run from inside a parent's stage joins chains at run time, so it goes through the
  /// trampoline: operators nested any number of times stay within bounded stack.
  func _run(under handle: RunHandle, _ completion: @escaping Completion) {
    _source.start(handle, joining: true) { admission in
      { result in
        if admission.admit(handle) && handle._markDelivered() { completion(result) }
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
        .start(handle, passingTo: completion)
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
