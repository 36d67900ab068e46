/// The smallest generic lazy promise that can express the task join: a struct holding a task, and `then` to a
/// promise. No stack safety, no cancellation, no exactly-once, no typed-error operators: nothing but the shape of
/// the API (a promise generic over its value, a task given a completion handler of that generic type).
///
/// The `minimal.*` instruction scenarios and the `Minimal.task` benchmark run the join users write on it, so that
/// `Promise`'s join can be read against what the API's shape costs before any engine: a stage allocates its `then`
/// closure when built, and when run, the closure that waits for the task, the user's task closure (it captures the
/// value), and the reabstraction thunk Swift makes when that task forwards a completion handler of the generic type
/// to an API typed with concrete ones. `@inlinable`, as `LazyPromise` is, so that it is specialized where it is
/// used.
public struct MinimalPromise<T, E: Error> {
  /// The work: called with the completion handler at every run.
  public let task: (@escaping (Result<T, E>) -> Void) -> Void

  /// A promise whose runs call `task`.
  @inlinable
  public init(_ task: @escaping (@escaping (Result<T, E>) -> Void) -> Void) {
    self.task = task
  }

  /// Runs this promise, then the promise `next` makes of its value; a failure skips `next`.
  @inlinable
  public func then<U>(_ next: @escaping (T) -> MinimalPromise<U, E>) -> MinimalPromise<U, E> {
    let task = self.task
    return MinimalPromise<U, E> { completion in
      task { result in
        switch result {
        case .success(let value): next(value).task(completion)
        case .failure(let error): completion(.failure(error))
        }
      }
    }
  }
}
