import Synchronization

/// The runs of a pending future's lazy view (`Future.promise`) waiting for its result: one observer on the
/// future for all of them, and a table a cancelled run removes itself from.
///
/// Observing the future once per run would leave a cancelled run's observer — and everything its continuation
/// holds — in the future until it completes, and the future's lock-free observer stack cannot remove one. Here
/// a run adds its completion under a lock and registers a cancel handler that takes it out again, so a cancelled
/// run costs nothing once `cancel()` returns, however long the future stays pending. Completions are called in
/// the order the runs began, on the thread that completes the future, with the lock released.
final class PendingRuns<T, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  private struct State {
    var nextKey = 0
    var waiting: [Int: Promise<T, E>.Completion] = [:]
    var isObserving = false
    var isDelivered = false
  }

  /// Guards `state`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it: this engine runs unspecialized
  /// in the caller's module, where a lock whose layout depends on the generic state would look its type up in the
  /// runtime's metadata cache at every transition (see `_Gather`).
  private let lock = _Lock(())
  /// Only read or written inside `lock.withLock`.
  @exclusivity(unchecked) private var state = State()

  /// Runs one run of the view: delivers `future`'s result to `completion`, or waits for it until the run is
  /// cancelled.
  func run(_ future: Future<T, E>, _ run: _TaskRun, completion: @escaping Promise<T, E>.Completion) {
    let key: Int? = lock.withLock { _ in
      guard !state.isDelivered, future.result == nil else { return nil }
      let key = state.nextKey
      state.nextKey += 1
      state.waiting[key] = completion
      return key
    }
    guard let key else {
      future.observe(completion)  // completed: delivers at once
      return
    }
    run.onStop { [self] mode in
      guard mode == .cancel else { return }  // an interrupted run still delivers the result
      let removed = lock.withLock { _ in state.waiting.removeValue(forKey: key) }
      withExtendedLifetime(removed) {}  // released here, with the lock no longer held
    }
    let observe = lock.withLock { _ in
      defer { state.isObserving = true }
      return !state.isObserving
    }
    if observe {
      nonisolated(unsafe) let future = future
      future.observe { [self] result in deliver(result) }
    }
  }

  private func deliver(_ result: Result<T, E>) {
    let waiting = lock.withLock { _ in
      state.isDelivered = true
      defer { state.waiting = [:] }
      return state.waiting
    }
    for key in waiting.keys.sorted() { waiting[key]?(result) }
  }
}

extension Future {
  /// This future's waiting runs, made the first time a run of its lazy view finds it pending.
  ///
  /// Published once by a compare-and-swap and never replaced; the future holds it until `deinit`, so a caller
  /// holding the future may use it unretained.
  var pendingRunsTable: PendingRuns<T, E> {
    let bits = _pendingRuns.load(ordering: .acquiring)
    if bits != 0 { return Self._pendingRuns(at: bits) }
    let made = UInt(bitPattern: Unmanaged.passRetained(PendingRuns<T, E>()).toOpaque())
    let (exchanged, original) = _pendingRuns.compareExchange(
      expected: 0, desired: made, ordering: .acquiringAndReleasing)
    if exchanged { return Self._pendingRuns(at: made) }
    Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: made)!).release()
    return Self._pendingRuns(at: original)
  }

  /// Releases the table, if one was made; called from `deinit`.
  func releasePendingRuns() {
    let bits = _pendingRuns.load(ordering: .acquiring)
    if bits != 0 { Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
  }

  private static func _pendingRuns(at bits: UInt) -> PendingRuns<T, E> {
    Unmanaged<PendingRuns<T, E>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
  }

  /// One run of the lazy view of this future: delivers at once if it is completed, otherwise waits in the
  /// future's table of pending runs, which a cancelled run leaves.
  func runLazyView(_ run: _TaskRun, _ completion: @escaping Promise<T, E>.Completion) {
    if _state.isCompleted {
      observe(completion)
    } else {
      pendingRunsTable.run(self, run, completion: completion)
    }
  }

  /// The lazy view of this future: each run delivers its result (see `runLazyView`).
  var lazyView: Promise<T, E> {
    nonisolated(unsafe) let future = self  // a future is thread-safe; `T` need not be `Sendable` to run
    return Promise(_combinator: { run, completion in future.runLazyView(run, completion) })
  }
}
