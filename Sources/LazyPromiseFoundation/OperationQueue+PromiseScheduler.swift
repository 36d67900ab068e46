import Dispatch
import Foundation
import LazyPromise

// MARK: - OperationQueue as a scheduler

extension OperationQueue: PromiseScheduler {
  /// Adds `work` to this queue as an operation; it runs when the queue gets to it, never before this returns.
  ///
  /// The queue's own rules apply: its `maxConcurrentOperationCount`, its quality of service, and its
  /// suspension (work waits while `isSuspended` is `true`).
  ///
  /// ```swift
  /// let imports = OperationQueue()
  /// imports.maxConcurrentOperationCount = 1
  /// parse(file).receive(on: imports).run(some: store, none: report)  // `store` runs on `imports`
  /// ```
  ///
  /// - Parameter work: The work to run.
  public func enqueue(_ work: @escaping @Sendable () -> Void) {
    addOperation(work)
  }

  /// Adds `work` to this queue once `delay` has passed (on the monotonic clock), unless cancelled first.
  ///
  /// An operation queue has no timers of its own: a Dispatch timer waits out the delay, then adds the work as an
  /// operation. Cancelling before the timer fires releases `work` at once; cancelling after, while the operation
  /// waits in the queue, cancels the operation, which then never runs.
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// lookup(id: "909253").timeout(.seconds(10), on: queue, error: .timedOut).run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait; zero or less adds the work as soon as possible.
  ///   - work: The work to run.
  /// - Returns: What cancels the work.
  public func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
    let delayed = DelayedOperation(work)
    let timer = DispatchQueue.global().enqueue(after: delay) { [self] in
      if let operation = delayed.makeOperation() { addOperation(operation) }
    }
    return ScheduledWork {
      timer.cancel()
      delayed.cancel()
    }
  }
}

/// Work an `OperationQueue` runs after a delay: first the function, then the operation made of it once the delay
/// has passed. Cancelling drops the function or cancels the operation, whichever it holds.
private final class DelayedOperation: @unchecked Sendable {
  private enum State {
    case waiting(@Sendable () -> Void)
    case queued(BlockOperation)
    case cancelled
  }

  private let lock = NSLock()
  /// Only read or written under `lock`.
  private var state: State

  init(_ work: @escaping @Sendable () -> Void) {
    state = .waiting(work)
  }

  /// The operation to add to the queue, or `nil` if the work was cancelled first.
  func makeOperation() -> BlockOperation? {
    lock.withLock {
      guard case .waiting(let work) = state else { return nil }
      let operation = BlockOperation(block: work)
      state = .queued(operation)
      return operation
    }
  }

  /// Drops the work, or cancels its operation if it is already in the queue.
  func cancel() {
    let queued: BlockOperation? = lock.withLock {
      defer { state = .cancelled }
      if case .queued(let operation) = state { return operation }
      return nil
    }
    queued?.cancel()
  }
}
