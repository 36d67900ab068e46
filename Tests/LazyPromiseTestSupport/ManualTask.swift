import LazyPromise

/// A task a test completes by hand. It counts its starts and how often its cancel handler ran, signals each start,
/// and keeps every completion handler it was given (so none is reported as released without being called).
///
/// ```swift
/// let task = ManualTask<Int, TestError>()
/// let outcome = Outcome(task.promise)
/// #expect(task.starts.current == 1 && outcome.result == nil)
/// task.succeed(1)
/// #expect(outcome.result == .success(1))
/// ```
public final class ManualTask<T: Sendable, E: Error>: Sendable {
  /// How many runs started the task.
  public let starts = Counter()
  /// How many times a cancel handler of the task ran.
  public let cancels = Counter()
  /// Fired once per start, after the start registered its cancel handler: `await started.wait()`.
  public let started = Signal()
  private let completions = Recorder<Promise<T, E>.Completion>()
  private let onCancelResult: Result<T, E>?

  /// A task that has not started.
  ///
  /// - Parameter onCancelResult: What a start completes with when its cancel handler runs, if anything; by
  ///   default a cancelled start stays pending until the test completes it.
  public init(completingOnCancelWith onCancelResult: Result<T, E>? = nil) {
    self.onCancelResult = onCancelResult
  }

  /// A promise of this task: each run starts it again, and completes only when the test (or a cancel, when made
  /// to) says so.
  public var promise: Promise<T, E> {
    Promise { completion, onCancel in
      self.starts.increment()
      self.completions.append(completion)
      onCancel {
        self.cancels.increment()
        if let result = self.onCancelResult { completion(result) }
      }
      self.started.fire()
    }
  }

  /// Completes the latest start.
  public func complete(_ result: Result<T, E>) {
    completions.all.last?(result)
  }

  /// Completes the latest start with `value`.
  public func succeed(_ value: T) { complete(.success(value)) }

  /// Completes the latest start with `error`.
  public func fail(_ error: E) { complete(.failure(error)) }

  /// Lets go of every completion handler kept so far, as a real task does once its run is over; a test whose
  /// chain captures this task calls it at the end, so that the handlers and the run they hold are freed.
  public func forget() {
    completions.removeAll()
  }

  /// Completes every start so far, in order.
  public func completeAll(_ result: Result<T, E>) {
    for completion in completions.all { completion(result) }
  }
}
