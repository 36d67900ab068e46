// The observers `observe`, `then`, `map`, `flatMap` and the error operators of `Future` register. A stage holds
// the future it completes (`target`) and returns that future's observers to the run loop instead of calling
// them, which keeps a chain of any length in constant stack.

/// `observe`: hands the result to a caller's callback.
@usableFromInline
final class _FutureCallback<T, E: Error>: _FutureObserverOf<T, E> {
  @usableFromInline let callback: @Sendable (Result<T, E>) -> Void

  @inlinable
  init(_ callback: @escaping @Sendable (Result<T, E>) -> Void) {
    self.callback = callback
    super.init { node in
      let this = unsafeDowncast(node, to: _FutureCallback<T, E>.self)
      this.callback(this.takeDelivered())
      return .empty
    }
  }
}

/// An observer that completes another future, `target`, which only it (and whoever holds the returned future) holds.
@usableFromInline
class _FutureStage<S, F: Error, T, E: Error>: _FutureObserverOf<S, F> {
  /// A `var` only so that `takeUniqueTargetStack` can ask `isKnownUniquelyReferenced`; never reassigned, so the
  /// dynamic exclusivity check of a class property (some 50 instructions per access, measured with
  /// `check-instructions.sh`) guards nothing and is turned off, as for `_AnyStage._owner`.
  @usableFromInline @exclusivity(unchecked) final var target: Future<T, E>

  @inlinable
  init(target: Future<T, E>, fire: @escaping Fire) {
    self.target = target
    super.init(fire: fire)
  }

  /// Whether the future this stage completes was cancelled before its input arrived: its function must not run.
  @inlinable
  final var isTargetCancelled: Bool { target._state.isCompleted }  // only a cancel completes it before the stage

  @usableFromInline
  override func takeUniqueTargetStack() -> UInt {
    isKnownUniquelyReferenced(&target) ? target._state.takePendingStack() : 0
  }
}

/// `flatMap` and friends: completes `target` with the result of the future a stage's function returned.
@usableFromInline
final class _FutureForward<T, E: Error>: _FutureStage<T, E, T, E> {
  @inlinable
  init(to target: Future<T, E>) {
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureForward<T, E>.self)
      return this.target._settle(this.takeDelivered())
    }
  }
}

/// The function of a value-side stage, stored with the exact type its operator received.
@usableFromInline
enum _FutureValueStep<S, T, E: Error> {
  case value(@Sendable (S) -> T)
  case result(@Sendable (S) -> Result<T, E>)
  case future(@Sendable (S) -> Future<T, E>)
}

/// `then`, `map`, `flatMap`: transforms a value; an error passes through.
@usableFromInline
final class _FutureValueStage<S, T, E: Error>: _FutureStage<S, E, T, E> {
  @usableFromInline let step: _FutureValueStep<S, T, E>

  @inlinable
  init(_ step: _FutureValueStep<S, T, E>, target: Future<T, E>) {
    self.step = step
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureValueStage<S, T, E>.self)
      if this.isTargetCancelled { return .empty }
      return this.step.continue(with: this.takeDelivered(), into: this.target)
    }
  }
}

/// `then`: applies the function a `FutureThenBuilder` closure (or a `Result`/`Future` function) became, stored
/// with its own `(S) -> Step` type — converting it to one of `_FutureValueStep`'s function types would cost a
/// reabstraction thunk, an allocation, per stage.
@usableFromInline
final class _FutureStepStage<S, Step: FutureThenStep>: _FutureStage<S, Step.Failure, Step.Success, Step.Failure> {
  @usableFromInline let transform: @Sendable (S) -> Step

  @inlinable
  init(_ transform: @escaping @Sendable (S) -> Step, target: Future<Step.Success, Step.Failure>) {
    self.transform = transform
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureStepStage<S, Step>.self)
      if this.isTargetCancelled { return .empty }
      switch this.takeDelivered() {
      case .failure(let error): return this.target._settle(.failure(error))
      case .success(let value): return this.transform(value)._settle(into: this.target)
      }
    }
  }
}

extension _FutureValueStep {
  /// Applies the step to `result` and completes `target` (now, or when a returned future completes).
  @inlinable
  func `continue`(with result: Result<S, E>, into target: Future<T, E>) -> _FutureNodeList {
    switch result {
    case .failure(let error):
      return target._settle(.failure(error))
    case .success(let value):
      switch self {
      case .value(let transform): return target._settle(.success(transform(value)))
      case .result(let transform): return target._settle(transform(value))
      case .future(let transform): return transform(value)._forward(to: target)
      }
    }
  }
}

/// The function of an error-side stage, stored with the exact type its operator received.
@usableFromInline
enum _FutureErrorStep<T, F: Error, E: Error> {
  case error(@Sendable (F) -> E)
  case value(@Sendable (F) -> T)
  case future(@Sendable (F) -> Future<T, E>)
}

/// `mapError`, `recover`, `flatMapError`: transforms an error; a value passes through.
@usableFromInline
final class _FutureErrorStage<T, F: Error, E: Error>: _FutureStage<T, F, T, E> {
  @usableFromInline let step: _FutureErrorStep<T, F, E>

  @inlinable
  init(_ step: _FutureErrorStep<T, F, E>, target: Future<T, E>) {
    self.step = step
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureErrorStage<T, F, E>.self)
      if this.isTargetCancelled { return .empty }
      return this.step.continue(with: this.takeDelivered(), into: this.target)
    }
  }
}

extension _FutureErrorStep {
  /// Applies the step to `result` and completes `target` (now, or when a returned future completes).
  @inlinable
  func `continue`(with result: Result<T, F>, into target: Future<T, E>) -> _FutureNodeList {
    switch result {
    case .success(let value):
      return target._settle(.success(value))
    case .failure(let error):
      switch self {
      case .error(let transform): return target._settle(.failure(transform(error)))
      case .value(let transform): return target._settle(.success(transform(error)))
      case .future(let transform): return transform(error)._forward(to: target)
      }
    }
  }
}

/// The side effect of `ensure` or `always`, stored with the exact type its operator received.
@usableFromInline
enum _FutureTap<T, E: Error> {
  case ensure(@Sendable () -> Void)
  case always(@Sendable (Result<T, E>) -> Void)

  @inlinable
  func apply(to result: Result<T, E>) {
    switch self {
    case .ensure(let body): body()
    case .always(let body): body(result)
    }
  }
}

/// `ensure`, `always`: runs a side effect on both outcomes and passes the result on.
@usableFromInline
final class _FutureTapStage<T, E: Error>: _FutureStage<T, E, T, E> {
  @usableFromInline let tap: _FutureTap<T, E>

  @inlinable
  init(_ tap: _FutureTap<T, E>, target: Future<T, E>) {
    self.tap = tap
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureTapStage<T, E>.self)
      if this.isTargetCancelled { return .empty }
      let result = this.takeDelivered()
      this.tap.apply(to: result)
      return this.target._settle(result)
    }
  }
}
