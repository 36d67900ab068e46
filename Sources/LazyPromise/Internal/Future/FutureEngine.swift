/// Where a `Future` keeps its result. Not API: public only because `Future` inherits it.
///
/// `Stored` is always `Result<T, E>?`. The result lives in this base class, typed by its own generic parameter, so
/// that `Future`'s `deinit` (which is not specialized) finds the field's type in the object's own metadata: a
/// field of type `Result<T, E>?` on `Future` would make it look the type up in the runtime's metadata cache on
/// every future freed (two hash-table look-ups, about 700 instructions, a fifth of a `then` stage).
public class _FutureResultSlot<Stored> {
  /// Written once, by the completer that claimed the state, before the state reads completed; read only after it
  /// does. The state word orders the two, so the run-time exclusivity check would guard nothing.
  @usableFromInline @exclusivity(unchecked) final var _result: Stored

  @usableFromInline
  init(_result: Stored) {
    self._result = _result
  }
}

extension Future {
  /// The stored result; only valid once the state reads completed.
  @inlinable
  var _storedResult: Result<T, E> {
    guard let result = _result else {
      fatalError("Internal inconsistency: a future reads completed but holds no result")
    }
    return result
  }

  /// Completes the future unless it already is; returns its observers, ready to run, or `nil` when ignored.
  @inlinable
  func _trySettle(_ result: Result<T, E>) -> _FutureNodeList? {
    switch _state.complete(storing: { _result = result }) {
    case .deliver(let stack): return .delivering(result, to: stack)
    case .ignore: return nil
    }
  }

  /// Completes a future that only a stage completes; returns its observers, ready to run.
  @inlinable
  func _settle(_ result: Result<T, E>) -> _FutureNodeList {
    _trySettle(result) ?? .empty
  }

  /// Queues `node` for the result, or runs it now if the future is already completed.
  @inlinable
  func _register(_ node: _FutureObserverOf<T, E>) {
    switch _state.register(node) {
    case .registered:
      return
    case .deliverNow:
      node.delivered = _storedResult
      let bits = UInt(bitPattern: Unmanaged.passRetained(node).toOpaque())
      _FutureNodeList(head: bits, tail: bits).run()
    }
  }

  /// Completes `target` with this future's result, now or once it arrives; returns what became ready now.
  @inlinable
  func _forward(to target: Future<T, E>) -> _FutureNodeList {
    if self === target { return target._waitingForItself() }
    if _state.isCompleted { return target._settle(_storedResult) }
    let node = _FutureForward(to: target)
    switch _state.register(node) {
    case .registered: return .empty
    case .deliverNow: return target._settle(_storedResult)
    }
  }
}

// MARK: - Stages: applied now if the result is here, registered otherwise

extension Future {
  /// The one shape of every observer stage: `now` the result if it is here, otherwise a pending future that the
  /// stage `later` makes completes, registered for when the result arrives (or queued behind this thread's work).
  @inlinable
  @inline(__always)
  func _chain<U, F>(
    now: (Result<T, E>) -> Future<U, F>, later: (Future<U, F>) -> _FutureObserverOf<T, E>
  ) -> Future<U, F> {
    // With work queued on this thread (past the stack budget), the stage queues behind it, as `observe` does, so
    // that it keeps its place among the observers at any stack depth (19.4, 6.8).
    if _state.isCompleted, !_hasQueuedSteps() { return now(_storedResult) }
    let target = Future<U, F>(_pending: ())
    _register(later(target))
    return target
  }

  /// `then`, `attemptMap`, `flatMap`.
  @inlinable
  func _thenStep<Step: FutureThenStep>(
    _ transform: @escaping @Sendable (T) -> Step
  ) -> Future<Step.Success, E> where Step.Failure == E {
    _chain(
      now: { result in
        switch result {
        case .failure(let error):
          return Future<Step.Success, E>(error: error)
        case .success(let value):
          guard Step._mayRecurse else { return transform(value)._asFuture() }
          // A loop written as recursion (`count(n) = done.then { count(n - 1) }`) calls back into `then` from its
          // transform: once the stack budget is spent, the rest continues from the outermost hop, and this returns
          // a pending future that the hop completes.
          return _hop(
            returning: { transform(value)._asFuture() },
            queued: {
              let target = Future<Step.Success, E>(_pending: ())
              return (
                target,
                {
                  guard !target._state.isCompleted else { return }  // cancelled before the hop ran: run nothing
                  transform(value)._settle(into: target).run()
                }
              )
            })
        }
      }, later: { _FutureStepStage(transform, target: $0) })
  }

  /// `map`.
  @inlinable
  func _map<U>(_ transform: @escaping @Sendable (T) -> U) -> Future<U, E> {
    _chain(now: { Future<U, E>(result: $0.map(transform)) }, later: { _FutureValueStage(transform, target: $0) })
  }

  /// `mapError`, `setFailureType`.
  @inlinable
  func _mapError<F>(_ transform: @escaping @Sendable (E) -> F) -> Future<T, F> {
    _chain(now: { Future<T, F>(result: $0.mapError(transform)) }, later: { _FutureErrorStage(transform, target: $0) })
  }

  /// `flatMapError`.
  @inlinable
  func _flatMapError<F>(_ transform: @escaping @Sendable (E) -> Future<T, F>) -> Future<T, F> {
    _chain(
      now: { result in
        switch result {
        case .success(let value): return Future<T, F>(value: value)
        case .failure(let error): return transform(error)
        }
      }, later: { _FutureFallbackStage(transform, target: $0) })
  }

  /// `operation` applied to a promise of this future's result, then started: the one path of every operator that
  /// `Future` does not write itself (Docs/Proposals/0006-future-surface.md). The promise registers an observer of
  /// its own, so the operator runs at its own place among this future's observers (contract 19.4).
  @inlinable
  func _forwarded<U, F>(_ operation: (Promise<T, E>) -> Promise<U, F>) -> Future<U, F> {
    nonisolated(unsafe) let future = self  // a future is thread-safe; `T` need not be `Sendable` to observe it
    // Started now, even behind queued work: the run's one step at once is to register its observer.
    return operation(Promise { completion in future.observe(completion) })._start(now: true)
  }
}
