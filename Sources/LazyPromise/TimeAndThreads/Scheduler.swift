import Dispatch

/// Where and when the time and thread operators run work: `receive(on:)`, `subscribe(on:)`, `delay`, `timeout` and
/// `retry` take one.
///
/// `DispatchQueue` is one; ``VirtualScheduler`` is another, for tests that drive time by hand and never sleep.
/// Conform your own type to run promise work on an event loop or a run loop.
///
/// ```swift
/// lookup(id: "909253")
///   .timeout(.seconds(10), on: DispatchQueue.global(), error: .timedOut)
///   .receive(on: DispatchQueue.main)
///   .run(some: show, none: report)
/// ```
///
/// The method names differ from Combine's `Scheduler` on purpose: a module that imports both still compiles.
public protocol PromiseScheduler: Sendable {
  /// Runs `work` soon, asynchronously: never before this method returns.
  ///
  /// ```swift
  /// DispatchQueue.main.enqueue { print("on the main queue") }
  /// ```
  ///
  /// - Parameter work: The work to run.
  func enqueue(_ work: @escaping @Sendable () -> Void)

  /// Runs `work` once `delay` has passed, unless the returned ``ScheduledWork`` is cancelled first.
  ///
  /// A delay of zero or less runs the work as soon as ``enqueue(_:)`` would. Cancelling should release `work`
  /// promptly: the operators cancel every timer they no longer need.
  ///
  /// ```swift
  /// let timer = DispatchQueue.global().enqueue(after: .seconds(1)) { print("a second later") }
  /// timer.cancel()  // not printed
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait.
  ///   - work: The work to run.
  /// - Returns: What cancels the work.
  func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

/// Work scheduled for later: ``cancel()`` stops it if it has not started.
///
/// ```swift
/// let timer = scheduler.enqueue(after: .milliseconds(250)) { spinner.show() }
/// // the answer came first:
/// timer.cancel()
/// ```
public struct ScheduledWork: Sendable {
  private let onCancel: @Sendable () -> Void

  /// Creates the handle a scheduler returns; `cancel` stops the work (it may be called more than once).
  ///
  /// ```swift
  /// let item = DispatchWorkItem { work() }
  /// let scheduled = ScheduledWork { item.cancel() }
  /// ```
  ///
  /// - Parameter cancel: Stops the work if it has not started.
  public init(cancel: @escaping @Sendable () -> Void) {
    onCancel = cancel
  }

  /// Stops the work if it has not started; does nothing if it has started, finished, or was already cancelled.
  ///
  /// ```swift
  /// timer.cancel()
  /// ```
  public func cancel() { onCancel() }
}

// MARK: - DispatchQueue

extension DispatchQueue: PromiseScheduler {
  /// Runs `work` asynchronously on this queue.
  ///
  /// ```swift
  /// DispatchQueue.main.enqueue { label.text = "done" }
  /// ```
  ///
  /// - Parameter work: The work to run.
  public func enqueue(_ work: @escaping @Sendable () -> Void) {
    async(execute: work)
  }

  /// Runs `work` on this queue once `delay` has passed (on the monotonic clock), unless cancelled first.
  ///
  /// The timer is a `DispatchSourceTimer`: cancelling it releases `work` at once rather than at the deadline.
  ///
  /// ```swift
  /// let timer = DispatchQueue.global().enqueue(after: .seconds(5)) { print("five seconds later") }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait; zero or less runs the work as soon as possible.
  ///   - work: The work to run.
  /// - Returns: What cancels the work.
  public func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
    let timer = Unchecked(DispatchSource.makeTimerSource(queue: self))  // thread-safe, not annotated
    let once = Once()
    timer.value.setEventHandler {
      guard once.claim() else { return }
      timer.value.cancel()  // one-shot; also releases this handler
      work()
    }
    timer.value.schedule(deadline: .now() + .nanoseconds(delay.dispatchNanoseconds))
    timer.value.activate()
    return ScheduledWork {
      if once.claim() { timer.value.cancel() }
    }
  }
}
