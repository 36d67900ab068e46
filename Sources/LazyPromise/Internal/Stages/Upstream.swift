// Where a value stage's input comes from. A stage built on a stage (`promise.then(f).then(g)`: the second `then`)
// needs nothing stored for it, since that stage is `_owner`; a stage built on a task or a known result stores the
// `_Source`. The two are two instantiations of the stage class, chosen when the stage is built, so the common one
// has no upstream for its unspecialized `deinit` to destroy through the generic enum's value witness (measured:
// Proposals/performance-history.md). Engine.md, section 1.

/// How a value stage stores its upstream (see the top of this file).
@usableFromInline
protocol _Upstream<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
  /// The source of the upstream of `stage`, the stage that stores this.
  func source(of stage: _AnyStage) -> _Source<Output, Failure>
}

extension _Source: _Upstream {
  @inlinable
  @inline(__always)
  func source(of stage: _AnyStage) -> _Source<T, E> { self }
}

/// The upstream of a stage built on a stage: that stage, which is `_owner`.
@usableFromInline
struct _StageUpstream<Output, Failure: Error>: _Upstream {
  @inlinable
  init() {}

  @inlinable
  @inline(__always)
  func source(of stage: _AnyStage) -> _Source<Output, Failure> {
    .stage(Unmanaged.fromOpaque(stage._owner.unsafelyUnwrapped.toOpaque()))
  }
}

/// The value stage applying `function` to `upstream`'s output, storing the upstream as the top of this file says.
///
/// Unspecialized callers (the combinators' own stages, the traced stages) build `_ValueStage` on `_Source` directly:
/// one class, so no second class's metadata is looked up for every stage they build.
@inlinable
@inline(__always)
func _valueStage<S, T, E: Error>(upstream: Promise<S, E>, _ function: _ValueFunction<S, T, E>) -> _Stage<T, E> {
  if case .stage = upstream._source {
    return _ValueStage(upstream: _StageUpstream<S, E>(), owner: upstream._owner, function)
  }
  return _ValueStage(upstream: upstream._source, owner: upstream._owner, function)
}

/// The stage applying `transform`, which returns a `ThenStep`, to `upstream`'s output, storing the upstream as
/// `_valueStage` does.
@inlinable
@inline(__always)
func _stepStage<S, Step: ThenStep>(
  upstream: Promise<S, Step.Failure>, transform: @escaping @Sendable (S) -> Step
) -> _Stage<Step.Success, Step.Failure> {
  if case .stage = upstream._source {
    return _StepStage(upstream: _StageUpstream<S, Step.Failure>(), owner: upstream._owner, transform: transform)
  }
  return _StepStage(upstream: upstream._source, owner: upstream._owner, transform: transform)
}
