// The stages `then`, `map`, `flatMap` and the error operators build: `_ValueStage` (a function of one of the three
// exact shapes), `_StepStage` (a function returning a `ThenStep`) and `_HandlerStage` (a function of the whole
// result: the error operators). Each stores its function with the exact type the operator received (an opaque
// generic value would be re-abstracted, which allocates) and gives its base class an `Invoke` closure, called on the
// last stage of a segment (`Fusion.swift`); the value stages also give it a `_fused` entry.
//
// Each stage's upstream is typed by a generic parameter `Upstream` (`_Source` of its input, or `_StageUpstream` for a
// value stage built on a stage: `Upstream.swift`), so that its unspecialized `deinit` finds the type's metadata in
// the class metadata instead of looking it up; and each `Invoke` switches over its upstream itself rather than
// passing `receive` as a closure. Both were measured (Performance.md, "Measured alternatives in the engine").

/// The function of a value stage, with the exact type the operator received: storing it as an opaque generic value
/// would re-abstract it, which allocates. Three cases of one function-sized payload: 16 bytes, as one function.
@usableFromInline
enum _ValueFunction<S, T, E: Error>: Sendable {
  /// `map`, `then` with a `T -> U` function, `tap` and `asVoid`.
  case value(@Sendable (S) -> T)
  /// `attemptMap`, `tryMap`, `unwrap` and `validate` (`then` with a `Result` builds a `_StepStage`).
  case result(@Sendable (S) -> Result<T, E>)
  /// `flatMap`, `flatten` and a traced `then`: a promise with a known result goes on by a direct call, anything
  /// else is a join.
  case promise(@Sendable (S) -> Promise<T, E>)

  /// Applies the function to stage `index`'s input in a fused run and passes the output on. A method, so that the
  /// stage's function is borrowed where it is stored: a `switch` over the stored property copied it.
  @inlinable
  @inline(__always)
  func apply(to value: S, _ index: Int, _ fused: _Fused, _ rest: _MakeRest) -> Bool {
    switch self {
    case .value(let transform):
      return fused.forward(Result<T, E>.success(transform(value)), from: index, rest)
    case .result(let transform):
      return fused.forward(transform(value), from: index, rest)
    case .promise(let transform):
      let next = transform(value)
      if case .result(let result) = next._source {
        return fused.forward(result, from: index, rest)
      }
      return fused.join(next, from: index, rest)
    }
  }
}

/// `map`, `flatMap`, `attemptMap` and the like: a function of one of the three exact shapes (`_ValueFunction`).
///
/// One stage class for the three shapes: a switch over the function's case costs a few instructions a stage, and
/// a stage is 104 bytes whichever the shape. Its two entries are the two ways a run reaches a value stage: `_fused`
/// inside a segment (`Fusion.swift`), `_invoke` as a segment's last stage, which runs it on its own with a
/// continuation when the segment is that stage alone.
///
/// Why two run paths, not one: a lone stage run as a segment of one pays for a waiter, a frame and a trampoline
/// delivery, and the lone stages are exactly the recursive loops and the combinators' children, which cost about
/// twice as much that way (Performance.md, "Measured alternatives in the engine").
@usableFromInline
final class _ValueStage<S, T, E: Error, Upstream>: _Stage<T, E>, @unchecked Sendable {
  @usableFromInline let upstream: Upstream
  @usableFromInline let function: _ValueFunction<S, T, E>

  @inlinable
  init(upstream: Upstream, owner: _AnyStage?, _ function: _ValueFunction<S, T, E>)
  where Upstream: _Upstream<S, E> {
    self.upstream = upstream
    self.function = function
    super.init(
      owner: owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _ValueStage<S, T, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.source(of: this).startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.isCancelled else { return false }
            return this.function.apply(to: value, index, fused, rest)
          case .failure(let error):
            return fused.forward(Result<T, E>.failure(error), from: index, rest)
          }
        }
      }
    ) { stage, handle, completion in
      let this = unsafeDowncast(stage, to: _ValueStage<S, T, E, Upstream>.self)
      if this._fusedRun > 1, _runFused(this, handle, completion) { return }
      let hops = this._hops
      let function = this.function
      // A stage's or a known result is always admitted; only a caller's task needs the admission check.
      @Sendable func receive(_ result: Result<S, E>) {
        switch result {
        case .success(let value):
          guard !handle._isCancelled else { return }
          switch function {
          case .value(let transform): _deliver(.success(transform(value)), to: completion, hop: hops)
          case .result(let transform): _deliver(transform(value), to: completion, hop: hops)
          case .promise(let transform): transform(value)._continue(handle, to: completion, hop: hops)
          }
        case .failure(let error):
          _deliver(.failure(error), to: completion, hop: hops)
        }
      }
      let upstream = this.upstream.source(of: this)
      switch upstream {
      case .stage(let stage):
        _Source<S, E>.startStage(stage, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        upstream.start(handle) { admission in
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
///
/// Why not a case of `_ValueFunction`: the enum's copy and destroy become outlined switches where this class retains
/// and releases one closure, which cost every value stage a few instructions (Performance.md, "Measured
/// alternatives in the engine").
@usableFromInline
final class _StepStage<S, Step: ThenStep, E: Error, Upstream>: _Stage<Step.Success, E>, @unchecked Sendable
where Step.Failure == E {
  @usableFromInline let upstream: Upstream
  @usableFromInline let transform: @Sendable (S) -> Step

  @inlinable
  init(upstream: Upstream, owner: _AnyStage?, transform: @escaping @Sendable (S) -> Step)
  where Upstream: _Upstream<S, E> {
    self.upstream = upstream
    self.transform = transform
    super.init(
      owner: owner,
      fused: { stage, call, rest in
        let this = unsafeDowncast(stage, to: _StepStage<S, Step, E, Upstream>.self)
        switch call {
        case .start(let fused):
          return this.upstream.source(of: this).startSegment(fused, rest)
        case .apply(let input, let fused, let index):
          switch input.assumingMemoryBound(to: Result<S, E>.self).move() {
          case .success(let value):
            guard !fused.isCancelled else { return false }
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
      let upstream = this.upstream.source(of: this)
      switch upstream {
      case .stage(let stage):
        _Source<S, E>.startStage(stage, handle, joining: false, receive)
      case .result(let result):
        guard !handle._isCancelled else { return }
        receive(result)  // called, not captured: no continuation to allocate
      case .task:
        upstream.start(handle) { admission in
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
  /// as a `map` stage delivers, with no join: it cannot start more work. Anything else is a join: a task is called
  /// directly, a stage is started through `RunHandle._join` (or the trampoline, if it hops). Library machinery:
  /// `then` calls it.
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
