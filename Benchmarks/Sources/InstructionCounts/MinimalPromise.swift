/// The smallest generic lazy promise that can express the task join: a struct holding a task, and `then` to a
/// promise. No stack safety, no cancellation, no exactly-once, no typed-error operators: nothing but the shape of
/// the API (a promise generic over its value, a task given a completion handler of that generic type).
///
/// `minimal.task` measures the join users write on it, so that `promise.task` can be read against what the API's
/// shape costs before any engine: a stage allocates its `then` closure when built, and when run, the closure that
/// waits for the task, the user's task closure (it captures the value), and the reabstraction thunk Swift makes
/// when that task forwards a completion handler of the generic type to an API typed with concrete ones.
struct MinimalPromise<T, E: Error> {
  let task: (@escaping (Result<T, E>) -> Void) -> Void

  func then<U>(_ next: @escaping (T) -> MinimalPromise<U, E>) -> MinimalPromise<U, E> {
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

/// `promiseTaskChain`'s chain on `MinimalPromise`.
func minimalTaskChain(_ stages: Int) -> MinimalPromise<Int, BenchError> {
  var chain = MinimalPromise<Int, BenchError> { completion in completion(.success(0)) }
  for _ in 0..<stages {
    chain = chain.then { value in MinimalPromise<Int, BenchError> { completion in request(value, completion) } }
  }
  return chain
}

/// `taskLoop` on `MinimalPromise` (not stack-safe: only for a few thousand iterations).
func minimalTaskLoop(_ remaining: Int) -> MinimalPromise<Int, BenchError> {
  if remaining == 0 { return MinimalPromise { completion in completion(.success(0)) } }
  return MinimalPromise<Int, BenchError> { completion in request(remaining &- 2, completion) }.then {
    minimalTaskLoop($0)
  }
}
