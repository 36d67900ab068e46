import LazyPromise

/// A task a test completes by hand. It counts its starts and how often its cancel handler ran, and keeps every
/// completion handler it was given (so none is reported as released without being called).
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
  private let completions = Recorder<Promise<T, E>.Completion>()

  /// A task that has not started.
  public init() {}

  /// A promise of this task: each run starts it again, and completes only when the test says so.
  public var promise: Promise<T, E> {
    Promise { completion, onCancel in
      self.starts.increment()
      self.completions.append(completion)
      onCancel { self.cancels.increment() }
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

  /// Completes every start so far, in order.
  public func completeAll(_ result: Result<T, E>) {
    for completion in completions.all { completion(result) }
  }
}
