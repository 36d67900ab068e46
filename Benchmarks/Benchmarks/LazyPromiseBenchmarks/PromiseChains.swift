import BenchmarkSupport
import Foundation
import LazyPromise

enum PromiseChains {
  /// An `n`-stage chain of the given `then` shape on a source that succeeds (or fails) at once.
  static func chain(_ shape: Shape, _ n: Int, failing: Bool = false) -> Promise<Int, BenchError> {
    var chain = failing ? Promise<Int, BenchError>(error: .failed) : Promise(value: 0)
    switch shape {
    case .map:
      for _ in 0..<n { chain = chain.then { $0 &+ 1 } }
    case .mapResult:
      for _ in 0..<n { chain = chain.then { incrementResult($0) } }
    case .flatMap:
      for _ in 0..<n { chain = chain.then { Promise(value: $0 &+ 1) } }
    }
    return chain
  }

  /// An `n`-stage chain whose every stage returns a promise made from a task: the join users write (a request, a
  /// timer, a registry). The task forwards its completion handler to an opaque step, as it would to a real API
  /// in another module; `Callbacks.task` calls the same step at every stage.
  static func taskChain(_ n: Int) -> Promise<Int, BenchError> {
    var chain = Promise<Int, BenchError>(value: 0)
    for _ in 0..<n {
      chain = chain.then { value in
        Promise<Int, BenchError> { completion in OpaqueStep.increment(value, completion) }
      }
    }
    return chain
  }

  /// An `n`-stage chain whose every stage returns the promise of a pending `Future`, resolved after the stage has
  /// returned (by ``Later/drain()``, as an event loop would): the join waits for the future.
  static func pendingFutureChain(_ n: Int) -> Promise<Int, BenchError> {
    var chain = Promise<Int, BenchError>(value: 0)
    for _ in 0..<n {
      chain = chain.then { value in
        let (future, resolver) = Future<Int, BenchError>.makePending()
        Later.resolutions.append((resolver, value &+ 1))
        return future.promise
      }
    }
    return chain
  }

  /// A recursive loop through a task: each iteration waits for a promise made from a task.
  static func taskLoop(_ remaining: Int) -> Promise<Int, BenchError> {
    if remaining == 0 { return Promise(value: 0) }
    return Promise<Int, BenchError> { completion in OpaqueStep.decrement(remaining, completion) }.then { taskLoop($0) }
  }

  @inline(never)
  static func incrementResult(_ value: Int) -> Result<Int, BenchError> {
    .success(value &+ 1)
  }

  /// A recursive loop: each iteration is a promise whose `then` starts the next iteration.
  static func loop(_ remaining: Int) -> Promise<Int, BenchError> {
    if remaining == 0 { return Promise(value: 0) }
    return Promise(value: remaining - 1).then { loop($0) }
  }

  /// The iTunes pipeline: request, transport, decode, titles.
  static func lookup(_ term: String, transport: InMemoryTransport) -> Promise<[String], PipelineError> {
    let body = Promise<Data, PipelineError> { completion in
      transport.send(SearchRequest(term: term)) { completion($0) }
    }
    let tracks: Promise<[Track], PipelineError> = body.then { decodeTracks($0) }
    return tracks.then { titles($0) }
  }
}
