import LazyPromise

/// A task a test completes by hand. It counts its starts and how often its cancel handler ran, and keeps every
/// completion handler it was given (so none is reported as released without being called).
final class ManualTask<T: Sendable, E: Error>: Sendable {
  let starts = Counter()
  let cancels = Counter()
  private let completions = Recorder<Promise<T, E>.Completion>()

  /// A promise of this task: each run starts it again.
  var promise: Promise<T, E> {
    Promise { completion, onCancel in
      self.starts.increment()
      self.completions.append(completion)
      onCancel { self.cancels.increment() }
    }
  }

  /// Completes the latest start.
  func complete(_ result: Result<T, E>) {
    completions.all.last?(result)
  }

  /// Completes every start so far, in order.
  func completeAll(_ result: Result<T, E>) {
    for completion in completions.all { completion(result) }
  }
}
