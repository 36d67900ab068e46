import Synchronization

extension Promise where T: Sendable {
  /// One run, awaited. With `cancelled`, task cancellation cancels the run and ends the `await` with it at once;
  /// without, it interrupts the run cooperatively and the `await` ends with what the run delivers.
  func awaitResult(endingWith cancelled: E?) async -> Result<T, E> {
    let bridge = AwaitBridge<T, E>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        bridge.start(self, continuation, cancelled: cancelled)
      }
    } onCancel: {
      bridge.taskCancelled(endingWith: cancelled)
    }
  }
}

/// Whether the one resume of an awaiting continuation has happened: a value type whose transitions, called under the
/// bridge's lock, return what the bridge does with the lock released. `phase`:
///
/// - `.waitingForStart`: the bridge has no continuation yet. A resume asked for now (the task was cancelled before
///   the operation began) finds nothing to resume; `start` then checks the cancellation itself.
/// - `.started(continuation)`: the run may deliver, or the task's cancellation may end the `await`; the first
///   `resume` takes the continuation.
/// - `.resumed`: every later `resume` finds nothing: a run cancelled or interrupted after it was resumed, or
///   delivering after the cancellation resumed it.
///
/// Generic over the continuation so that its transitions can be tested without an `await`.
struct AwaitStateMachine<Continuation> {
  enum Phase {
    case waitingForStart
    case started(Continuation)
    case resumed
  }

  private(set) var phase = Phase.waitingForStart

  /// The operation began with `continuation`.
  mutating func start(_ continuation: Continuation) {
    guard case .waitingForStart = phase else {
      preconditionFailure("await: started in phase \(phase)")
    }
    phase = .started(continuation)
  }

  /// The continuation to resume, taken for good; `nil` if there is none yet, or it was resumed already.
  mutating func resume() -> Continuation? {
    guard case .started(let continuation) = phase else { return nil }
    phase = .resumed
    return continuation
  }
}

/// Joins one run to one continuation, which it resumes exactly once: with the run's result, or — when the
/// awaiting task is cancelled and the error type can say so — with that error. Its state is `AwaitStateMachine`.
final class AwaitBridge<T: Sendable, E: Error>: @unchecked Sendable {  // its mutable state is behind `lock`
  typealias Machine = AwaitStateMachine<CheckedContinuation<Result<T, E>, Never>>

  private let handle = RunHandle()
  private let lock = _StateLock()  // guards `state`, kept beside it: see `_StateLock`
  /// Only touched inside `lock.withLock`.
  @exclusivity(unchecked) private var state = Machine()

  /// Stores the continuation, then starts the run (unless the task was cancelled first and `cancelled` can say
  /// so).
  func start(_ promise: Promise<T, E>, _ continuation: CheckedContinuation<Result<T, E>, Never>, cancelled: E?) {
    lock.withLock { state.start(continuation) }
    if let cancelled, handle.isCancelled {
      resume(.failure(cancelled))
      return
    }
    promise._run(under: handle) { [self] result in resume(result) }
  }

  /// The awaiting task was cancelled (before or after `start`).
  func taskCancelled(endingWith cancelled: E?) {
    guard let cancelled else {
      handle._interrupt()
      return
    }
    handle.cancel()
    // `cancel()` and delivery exclude each other: once the run is cancelled it will never deliver, so this is
    // the one resume. (Before `start` there is no continuation yet; `start` then resumes.)
    if handle.isCancelled { resume(.failure(cancelled)) }
  }

  private func resume(_ result: Result<T, E>) {
    lock.withLock { state.resume() }?.resume(returning: result)
  }
}
