// The observers `observe`, `then`, `map`, `flatMap` and `mapError` of `Future` register. A stage holds
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

/// `map`: transforms a value; an error passes through.
@usableFromInline
final class _FutureValueStage<S, T, E: Error>: _FutureStage<S, E, T, E> {
  @usableFromInline let transform: @Sendable (S) -> T

  @inlinable
  init(_ transform: @escaping @Sendable (S) -> T, target: Future<T, E>) {
    self.transform = transform
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureValueStage<S, T, E>.self)
      if this.isTargetCancelled { return .empty }
      return this.target._settle(this.takeDelivered().map(this.transform))
    }
  }
}

/// `then`, `attemptMap`, `flatMap`: applies a function returning a `Result` or a `Future`, stored with its own
/// `(S) -> Step` type: converting it to another function type would cost a reabstraction thunk, an allocation, per
/// stage.
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

/// `mapError`, `setFailureType`: transforms an error; a value passes through.
@usableFromInline
final class _FutureErrorStage<T, F: Error, E: Error>: _FutureStage<T, F, T, E> {
  @usableFromInline let transform: @Sendable (F) -> E

  @inlinable
  init(_ transform: @escaping @Sendable (F) -> E, target: Future<T, E>) {
    self.transform = transform
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureErrorStage<T, F, E>.self)
      if this.isTargetCancelled { return .empty }
      return this.target._settle(this.takeDelivered().mapError(this.transform))
    }
  }
}

/// `flatMapError`: continues after an error with the future its function returns; a value passes through.
@usableFromInline
final class _FutureFallbackStage<T, F: Error, E: Error>: _FutureStage<T, F, T, E> {
  @usableFromInline let transform: @Sendable (F) -> Future<T, E>

  @inlinable
  init(_ transform: @escaping @Sendable (F) -> Future<T, E>, target: Future<T, E>) {
    self.transform = transform
    super.init(target: target) { node in
      let this = unsafeDowncast(node, to: _FutureFallbackStage<T, F, E>.self)
      if this.isTargetCancelled { return .empty }
      switch this.takeDelivered() {
      case .success(let value): return this.target._settle(.success(value))
      case .failure(let error): return this.transform(error)._forward(to: this.target)  // 19.14: `_forward` sees itself
      }
    }
  }
}
