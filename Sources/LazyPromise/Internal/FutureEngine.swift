/// Where a `Future` keeps its result. Not API: public only because `Future` inherits it.
///
/// `Stored` is always `Result<T, E>?`. The result lives in this base class, typed by its own generic parameter, so
/// that `Future`'s `deinit` (which is not specialized) finds the field's type in the object's own metadata: a
/// field of type `Result<T, E>?` on `Future` would make it look the type up in the runtime's metadata cache on
/// every future freed (two hash-table look-ups, about 700 instructions, a fifth of a `then` stage).
public class _FutureResultSlot<Stored> {
  /// Written once, by the completer that claimed the state, before the state reads completed.
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
    if _state.isCompleted { return target._settle(_storedResult) }
    let node = _FutureForward(to: target)
    switch _state.register(node) {
    case .registered: return .empty
    case .deliverNow: return target._settle(_storedResult)
    }
  }
}
