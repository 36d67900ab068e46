import BenchmarkSupport
import Synchronization

/// Hand-written nested completion handlers: what code looks like without a promise library.
enum Callbacks {
  typealias Completion<T> = (Result<T, BenchError>) -> Void
  typealias Operation<T> = (@escaping Completion<T>) -> Void

  /// An `n`-stage chain of the given shape, built in a loop as a promise chain would be.
  ///
  /// Each stage captures the previous operation (one allocation when built) and, when run, wraps the
  /// completion it forwards to (one allocation per run).
  static func chain(_ shape: Shape, _ n: Int, failing: Bool = false) -> Operation<Int> {
    var operation: Operation<Int> =
      failing ? { completion in completion(.failure(.failed)) } : { completion in completion(.success(0)) }
    for _ in 0..<n {
      let previous = operation
      switch shape {
      case .map:
        operation = { completion in
          previous { result in
            switch result {
            case .success(let value): completion(.success(value &+ 1))
            case .failure(let error): completion(.failure(error))
            }
          }
        }
      case .mapResult:
        operation = { completion in
          previous { result in
            switch result {
            case .success(let value): completion(incrementResult(value))
            case .failure(let error): completion(.failure(error))
            }
          }
        }
      case .flatMap:
        operation = { completion in
          previous { result in
            switch result {
            case .success(let value): incrementLater(value, completion)
            case .failure(let error): completion(.failure(error))
            }
          }
        }
      }
    }
    return operation
  }

  static func chain(_ shape: Shape, _ n: Int, failing: Bool, completion: @escaping Completion<Int>) {
    chain(shape, n, failing: failing)(completion)
  }

  @inline(never)
  static func incrementResult(_ value: Int) -> Result<Int, BenchError> {
    .success(value &+ 1)
  }

  /// The `T -> Promise` stage: an asynchronous step (opaque, as a real one in another module is) that happens
  /// to complete at once.
  static func incrementLater(_ value: Int, _ completion: @escaping Completion<Int>) {
    OpaqueStep.increment(value, completion)
  }

  /// Runs `count` operations and delivers their values in order once all have completed.
  static func all(_ count: Int, completion: @escaping Completion<[Int]>) {
    final class Aggregate: Sendable {
      struct State {
        var values: [Int?]
        var remaining: Int
        var failed = false
      }
      let state: Mutex<State>
      init(_ count: Int) { state = Mutex(State(values: Array(repeating: nil, count: count), remaining: count)) }
    }
    let operations: [Operation<Int>] = (0..<count).map { index in { completion in completion(.success(index)) } }
    let aggregate = Aggregate(count)
    for (index, operation) in operations.enumerated() {
      operation { result in
        // Decide under the lock; call out after it is released.
        let outcome: Result<[Int], BenchError>? = aggregate.state.withLock { state in
          guard !state.failed else { return nil }
          switch result {
          case .success(let value):
            state.values[index] = value
            state.remaining -= 1
            return state.remaining == 0 ? .success(state.values.map { $0! }) : nil
          case .failure(let error):
            state.failed = true
            return .failure(error)
          }
        }
        if let outcome { completion(outcome) }
      }
    }
  }

  /// A recursive loop: each iteration is an asynchronous step whose completion starts the next iteration.
  ///
  /// Not stack-safe: with synchronous steps the stack grows with every iteration.
  static func loop(_ remaining: Int, completion: @escaping Completion<Int>) {
    if remaining == 0 {
      completion(.success(0))
      return
    }
    decrementLater(remaining) { result in
      switch result {
      case .success(let next): loop(next, completion: completion)
      case .failure(let error): completion(.failure(error))
      }
    }
  }

  static func decrementLater(_ value: Int, _ completion: @escaping Completion<Int>) {
    OpaqueStep.decrement(value, completion)
  }

  /// The iTunes pipeline: request, transport, decode, titles.
  static func lookup(
    _ term: String, transport: InMemoryTransport, completion: @escaping (Result<[String], PipelineError>) -> Void
  ) {
    let request = SearchRequest(term: term)
    transport.send(request) { result in
      switch result {
      case .success(let body): completion(decodeTracks(body).map(titles))
      case .failure(let error): completion(.failure(error))
      }
    }
  }
}

/// Direct closure composition, `f = { g($0) + 1 }`: no completion handler, no error channel. The reference
/// below the floor.
enum Composition {
  static func chain(_ n: Int) -> (Int) -> Int {
    var function: (Int) -> Int = { $0 }
    for _ in 0..<n {
      let previous = function
      function = { previous($0) &+ 1 }
    }
    return function
  }
}
