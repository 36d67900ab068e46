import LazyPromise
import Testing

/// A promise input a test controls: it counts its runs and cancellations, and completes the latest run on demand.
final class Gate<T: Sendable>: Sendable {
  let starts = Counter()
  let cancels = Counter()
  private let completions = Recorder<Promise<T, TestError>.Completion>()

  /// Each run registers its completion and what to do on cancel; it completes only when the test says so.
  var promise: Promise<T, TestError> {
    Promise { completion, onCancel in
      self.starts.increment()
      self.completions.append(completion)
      onCancel { self.cancels.increment() }
    }
  }

  /// Completes the latest run.
  func complete(_ result: Result<T, TestError>) {
    completions.all.last?(result)
  }

  func succeed(_ value: T) { complete(.success(value)) }
  func fail(_ error: TestError) { complete(.failure(error)) }
}

/// Runs `promise` once and returns what it delivered so far (nothing yet, or the one result).
final class Outcome<T: Sendable, E: Error>: Sendable {
  private let results = Recorder<Result<T, E>>()
  let handle: RunHandle

  init(_ promise: Promise<T, E>) {
    let results = self.results
    handle = promise.run { results.append($0) }
  }

  /// The one result delivered, or `nil` while none has been (a second one fails the test).
  var result: Result<T, E>? {
    let all = results.all
    #expect(all.count <= 1, "a run delivered more than once")
    return all.first
  }
}
