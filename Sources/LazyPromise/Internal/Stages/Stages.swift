// The stages `then`, `map`, `flatMap` and the error operators build. Each stores its function with the exact
// function type the operator receives (storing it as an opaque generic value would re-abstract it, which
// allocates), and gives its base class an `Invoke` closure written where the types are concrete. The value stages
// (`_MapStage`, `_ResultStage`, `_FlatMapStage`, `_StepStage`) also give it a `_fused` entry, so that a run drives
// several of them in a row with direct calls (`Fusion.swift`); their `Invoke` hands a run to `_runFused` when the
// stages before them are value stages too, and otherwise runs the stage on its own.
//
// Each stage also has a generic parameter `Upstream`, always `_Source` of its input (its initializer requires it),
// for the type of its `upstream` property. A class's `deinit` is never specialized: it destroys the stored
// properties with the types' runtime metadata, and a property of type `_Source<S, E>` makes it look that type up
// in the runtime's metadata cache (a hash-table look-up, about 330 instructions, a fifth of a stage) every time a
// stage is freed. The metadata of a generic parameter is in the object's own class metadata: one load.
//
// Each stage's `Invoke` closure switches over its upstream itself, the same few lines in every stage, rather than
// calling one `_Source` method with its `receive` function: passed as a closure value, `receive` is made into a
// closure even where a known result is handed to it directly, and a recursive loop's iteration went from 950
// instructions to 1,534 when that was tried.

/// `map` and `then` with a `T -> U` function.
@usableFromInline
final class _MapStage<S, T, E: Error, Upstream>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let upstream: Upstream
  @usableFromInline let transform: @Sendable (S) -> T

  @inlinable
  init(upstream: Promise<S, E>, transform: @escaping @Sendable (S) -> T) where Upstream == _Source<S, E> {
    self.upstream = upstream._source
    self.transform = transform
    super.init(
      owner: upstream._owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _MapStage<S, T, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.handle._isCancelled else { return false }
            return fused.forward(Result<T, E>.success(this.transform(value)), from: index, rest)
          case .failure(let error):
            return fused.forward(Result<T, E>.failure(error), from: index, rest)
          }
        }
      }
    ) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _MapStage<S, T, E, Upstream>.self)
      if this._fusedRun > 1, _runFused(this, handle, completion) { return }
      let hops = this._hops
      let transform = this.transform
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, E>) {
        switch result {
        case .success(let value):
          guard !handle._isCancelled else { return }
          _deliver(.success(transform(value)), to: completion, hop: hops)
        case .failure(let error):
          _deliver(.failure(error), to: completion, hop: hops)
        }
      }
      switch this.upstream {
      case .stage(let upstream):
        _Source<S, E>.startStage(upstream, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        this.upstream.start(handle) { admission in
          { result in
            if admission.admit(handle) { receive(result) }
          }
        }
      }
    }
  }
}

/// `then` with a `T -> Result<U, E>` function.
@usableFromInline
final class _ResultStage<S, T, E: Error, Upstream>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let upstream: Upstream
  @usableFromInline let transform: @Sendable (S) -> Result<T, E>

  @inlinable
  init(upstream: Promise<S, E>, transform: @escaping @Sendable (S) -> Result<T, E>) where Upstream == _Source<S, E> {
    self.upstream = upstream._source
    self.transform = transform
    super.init(
      owner: upstream._owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _ResultStage<S, T, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.handle._isCancelled else { return false }
            return fused.forward(this.transform(value), from: index, rest)
          case .failure(let error):
            return fused.forward(Result<T, E>.failure(error), from: index, rest)
          }
        }
      }
    ) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _ResultStage<S, T, E, Upstream>.self)
      if this._fusedRun > 1, _runFused(this, handle, completion) { return }
      let hops = this._hops
      let transform = this.transform
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, E>) {
        switch result {
        case .success(let value):
          guard !handle._isCancelled else { return }
          _deliver(transform(value), to: completion, hop: hops)
        case .failure(let error):
          _deliver(.failure(error), to: completion, hop: hops)
        }
      }
      switch this.upstream {
      case .stage(let upstream):
        _Source<S, E>.startStage(upstream, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        this.upstream.start(handle) { admission in
          { result in
            if admission.admit(handle) { receive(result) }
          }
        }
      }
    }
  }
}

/// `flatMap` and `then` with a `T -> Promise<U, E>` function.
///
/// The same as a `_StepStage` whose step is a `Promise`, written out: as that alias, a `flatMap` returning a promise
/// made from a task cost 2,829 instructions and 5.09 allocations a stage instead of 2,802 and 5.06, and 25,622
/// instructions traced instead of 23,480 (`TracingCounts task` and `traced.task`, 2026-11-23).
@usableFromInline
final class _FlatMapStage<S, T, E: Error, Upstream>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let upstream: Upstream
  @usableFromInline let transform: @Sendable (S) -> Promise<T, E>

  @inlinable
  init(upstream: Promise<S, E>, transform: @escaping @Sendable (S) -> Promise<T, E>) where Upstream == _Source<S, E> {
    self.upstream = upstream._source
    self.transform = transform
    super.init(
      owner: upstream._owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _FlatMapStage<S, T, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.handle._isCancelled else { return false }
            let next = this.transform(value)
            if case .result(let result) = next._source {
              return fused.forward(result, from: index, rest)
            } else {
              return fused.join(next, from: index, rest)
            }
          case .failure(let error):
            return fused.forward(Result<T, E>.failure(error), from: index, rest)
          }
        }
      }
    ) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _FlatMapStage<S, T, E, Upstream>.self)
      if this._fusedRun > 1, _runFused(this, handle, completion) { return }
      let hops = this._hops
      let transform = this.transform
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, E>) {
        switch result {
        case .success(let value):
          guard !handle._isCancelled else { return }
          transform(value)._continue(handle, to: completion, hop: hops)
        case .failure(let error):
          _deliver(.failure(error), to: completion, hop: hops)
        }
      }
      switch this.upstream {
      case .stage(let upstream):
        _Source<S, E>.startStage(upstream, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        this.upstream.start(handle) { admission in
          { result in
            if admission.admit(handle) { receive(result) }
          }
        }
      }
    }
  }
}

/// `then` with a function returning a ``ThenStep``: a `Result` or a `Promise` of the chain's error type (and every
/// inline closure, which ``ThenBuilder`` turns into a `Promise`).
@usableFromInline
final class _StepStage<S, Step: ThenStep, E: Error, Upstream>: _Stage<Step.Success, E>, @unchecked Sendable
where Step.Failure == E {
  @usableFromInline let upstream: Upstream
  @usableFromInline let transform: @Sendable (S) -> Step

  @inlinable
  init(upstream: Promise<S, E>, transform: @escaping @Sendable (S) -> Step) where Upstream == _Source<S, E> {
    self.upstream = upstream._source
    self.transform = transform
    super.init(
      owner: upstream._owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _StepStage<S, Step, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.handle._isCancelled else { return false }
            let step = this.transform(value)
            if let result = step._result {
              return fused.forward(result, from: index, rest)
            } else {
              return fused.join(step, from: index, rest)
            }
          case .failure(let error):
            return fused.forward(Result<Step.Success, E>.failure(error), from: index, rest)
          }
        }
      }
    ) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _StepStage<S, Step, E, Upstream>.self)
      if this._fusedRun > 1, _runFused(this, handle, completion) { return }
      let hops = this._hops
      let transform = this.transform
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, E>) {
        switch result {
        case .success(let value):
          guard !handle._isCancelled else { return }
          transform(value)._continue(handle, to: completion, hop: hops)
        case .failure(let error):
          _deliver(.failure(error), to: completion, hop: hops)
        }
      }
      switch this.upstream {
      case .stage(let upstream):
        _Source<S, E>.startStage(upstream, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        this.upstream.start(handle) { admission in
          { result in
            if admission.admit(handle) { receive(result) }
          }
        }
      }
    }
  }
}

/// What an error-side handler continues with: a result now, or a promise to run.
@usableFromInline
enum _Next<T, E: Error> {
  case result(Result<T, E>)
  case promise(Promise<T, E>)
}

/// The error-side operators (`mapError`, `flatMapError`, `recover`, `ensure`, ...): a function of the whole
/// upstream result.
@usableFromInline
final class _HandlerStage<S, F: Error, T, E: Error, Upstream>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let upstream: Upstream
  @usableFromInline let handler: @Sendable (Result<S, F>) -> _Next<T, E>

  @inlinable
  init(upstream: Promise<S, F>, handler: @escaping @Sendable (Result<S, F>) -> _Next<T, E>)
  where Upstream == _Source<S, F> {
    self.upstream = upstream._source
    self.handler = handler
    super.init(owner: upstream._owner) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _HandlerStage<S, F, T, E, Upstream>.self)
      let hops = this._hops
      let handler = this.handler
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, F>) {
        guard !handle._isCancelled else { return }
        switch handler(result) {
        case .result(let next):
          _deliver(next, to: completion, hop: hops)
        case .promise(let next):
          next._continue(handle, to: completion, hop: hops)
        }
      }
      switch this.upstream {
      case .stage(let upstream):
        _Source<S, F>.startStage(upstream, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        this.upstream.start(handle) { admission in
          { result in
            if admission.admit(handle) { receive(result) }
          }
        }
      }
    }
  }
}

/// A caller's task that registers what to do when its run is cancelled.
@usableFromInline
final class _CancellableTaskStage<T, E: Error>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let task: Promise<T, E>.CancellableTask
  @usableFromInline let site: _Site

  @inlinable
  init(task: @escaping Promise<T, E>.CancellableTask, site: _Site) {
    self.task = task
    self.site = site
    super.init(owner: nil) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _CancellableTaskStage<T, E>.self)
      let task = this.task
      let generation = handle._generation
      let source = _Source<T, E>.task(
        { completion in task(completion) { handler in handle._onCancel(handler, generation: generation) } },
        this.site)
      source.start(handle, passingTo: completion)
    }
  }
}

extension Promise {
  /// Runs this promise as the continuation of a stage of `handle`'s run, passing its result to `completion`.
  ///
  /// A known result (`Promise(value:)`, and every plain value a ``ThenBuilder`` closure produces) is delivered
  /// as a `map` stage delivers, with no join: it cannot start more work. Anything else is a join, which always
  /// goes through the trampoline. Library machinery: `then` calls it.
  ///
  /// ```swift
  /// let next = Promise<Int, Never>(value: 1).then { Promise<Int, Never>(value: $0 + 1) }  // calls it for you
  /// ```
  @inlinable
  public func _continue(_ handle: RunHandle, to completion: @escaping @Sendable (Result<T, E>) -> Void, hop: Bool) {
    if case .result(let result) = _source {
      _deliver(result, to: completion, hop: hop)
    } else {
      _source.start(handle, passingTo: completion)
      withExtendedLifetime(self) {}
    }
  }
}
