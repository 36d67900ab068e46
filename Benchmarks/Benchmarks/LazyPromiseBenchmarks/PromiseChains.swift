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
