import Synchronization

/// The state of one run of `Promise.reduce`: runs the inputs one after another, folding each value into the
/// accumulated one. Only the input in progress is alive; a stopped run stops it the same way, and every input
/// started afterwards is stopped at once (so a cancelled run starts nothing that delivers).
final class ReduceLoop<T, E: Error, Accumulated>: @unchecked Sendable {
  private struct State {
    /// The input in progress.
    var child: RunHandle?
    var stop: _StopMode?
  }

  private let inputs: [Promise<T, E>]
  private let combine: @Sendable (Accumulated, T) -> Accumulated
  private let completion: @Sendable (Result<Accumulated, E>) -> Void
  /// Guards `state`. A `_Lock<Void>` beside the state rather than a `_Lock` holding it: this engine runs unspecialized
  /// in the caller's module, where a lock whose layout depends on the generic state would look its type up in the
  /// runtime's metadata cache at every transition (see `_Gather`).
  private let lock = _Lock(())
  /// Only read or written inside `lock.withLock`.
  @exclusivity(unchecked) private var state = State()

  init(
    inputs: [Promise<T, E>], combine: @escaping @Sendable (Accumulated, T) -> Accumulated,
    completion: @escaping @Sendable (Result<Accumulated, E>) -> Void
  ) {
    self.inputs = inputs
    self.combine = combine
    self.completion = completion
  }

  /// Starts the first input, or delivers `initial` when there is none.
  func start(_ run: _TaskRun, initial: Accumulated) {
    run.onStop { [self] mode in stop(mode) }
    step(0, initial)
  }

  private func step(_ index: Int, _ accumulated: Accumulated) {
    guard index < inputs.count else { return completion(.success(accumulated)) }
    let child = RunHandle()
    let stop = lock.withLock { _ in
      state.child = child
      return state.stop
    }
    if let stop { child.stop(stop) }
    let next = Unchecked(accumulated)
    inputs[index]._run(under: child) { [self] result in
      switch result {
      case .failure(let error):
        completion(.failure(error))
      case .success(let value):
        let folded = Unchecked(combine(next.value, value))
        // A synchronous input re-enters `step` from inside the last one: go through the trampoline, as
        // every run-time join does, so any number of inputs runs in bounded stack.
        _hop({ step(index + 1, folded.value) }, { { self.step(index + 1, folded.value) } })
      }
    }
  }

  private func stop(_ mode: _StopMode) {
    let child = lock.withLock { _ in
      state.stop = mode
      return state.child
    }
    child?.stop(mode)
  }
}
