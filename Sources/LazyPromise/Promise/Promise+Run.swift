// MARK: - Running

extension Promise {
  /// Runs the promise: its tasks start now, and `completion` receives the result exactly once.
  ///
  /// The work starts on the calling thread; `completion` runs on the thread that delivers the last stage's
  /// result. A chain that completes synchronously has delivered by the time `run` returns (when `run` is called
  /// from outside any promise callback). Each call runs the whole chain again.
  ///
  /// ```swift
  /// Promise<Int, Never>(value: 20).then { $0 + 1 }.run { result in
  ///   print(result)  // success(21)
  /// }
  /// ```
  ///
  /// - Parameter completion: Receives the result, unless the run is cancelled first.
  /// - Returns: A handle that cancels this run.
  @inlinable
  @discardableResult
  public func run(_ completion: @escaping Completion) -> RunHandle {
    let handle = RunHandle()
    if _slowPath(_hasQueuedSteps()) { return _runAfterQueued(handle, completion) }
    return _runNow(handle, completion)
  }

  /// `run(_:)` started at once, whatever this thread has queued.
  @inlinable
  func _runNow(_ handle: RunHandle, _ completion: @escaping Completion) -> RunHandle {
    _source.start(handle) { admission in
      { result in
        if admission.admit(handle) && handle._markDelivered() { completion(result) }
      }
    }
    // `_source` refers to the last stage without owning it; `self` owns it. Inlined into the caller, `self` may be
    // a temporary (`chain().run { ... }`) that the optimizer would otherwise end as soon as `_source` is read.
    withExtendedLifetime(self) {}
    return handle
  }

  /// Runs the promise, calling `some` with the value or `none` with the error — exactly one of them, once.
  ///
  /// Threads and timing are as for ``run(_:)``.
  ///
  /// ```swift
  /// lookup(id: "909253").then(decode).run(
  ///   some: { print($0.artistName) },
  ///   none: { print("error: \($0)") })
  /// ```
  ///
  /// - Parameters:
  ///   - some: Receives the value when the chain succeeds.
  ///   - none: Receives the typed error when a stage fails.
  /// - Returns: A handle that cancels this run.
  @inlinable
  @discardableResult
  public func run(some: @escaping @Sendable (T) -> Void, none: @escaping @Sendable (E) -> Void) -> RunHandle {
    let handle = RunHandle()
    if _slowPath(_hasQueuedSteps()) {
      return _runAfterQueued(handle) { result in
        switch result {
        case .success(let value): some(value)
        case .failure(let error): none(error)
        }
      }
    }
    _source.start(handle) { admission in
      { result in
        guard admission.admit(handle) && handle._markDelivered() else { return }
        switch result {
        case .success(let value): some(value)
        case .failure(let error): none(error)
        }
      }
    }
    withExtendedLifetime(self) {}  // as in `run(_:)`: `self` owns the stage `_source` refers to
    return handle
  }

  /// Starts a run behind the work this thread's trampoline has queued (a run begun inside a handler past the
  /// stack budget), so that it does not overtake that work (contract 6.8).
  @usableFromInline
  func _runAfterQueued(_ handle: RunHandle, _ completion: @escaping Completion) -> RunHandle {
    _enqueueHop { _ = self._runNow(handle, completion) }
    return handle
  }
}

extension Promise where E == Never {
  /// Runs a promise that cannot fail; `some` receives the value exactly once.
  ///
  /// Spell the label: a trailing closure (`run { result in ... }`) goes to ``run(_:)`` and receives the
  /// `Result`, on any promise.
  ///
  /// ```swift
  /// Promise<Int, Never>(value: 1).then { $0 * 2 }.run(some: { print($0) })  // 2
  /// ```
  ///
  /// - Parameter some: Receives the value, unless the run is cancelled first.
  /// - Returns: A handle that cancels this run.
  @inlinable @_disfavoredOverload
  @discardableResult
  public func run(some: @escaping @Sendable (T) -> Void) -> RunHandle {
    run(some: some, none: { _ in })  // a `Never` error is never delivered
  }
}
