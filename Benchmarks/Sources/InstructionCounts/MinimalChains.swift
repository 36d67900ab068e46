import MinimalPromise

/// `promiseTaskChain`'s chain on `MinimalPromise` (the API's shape with no engine: see its declaration).
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
