import Benchmark
import BenchmarkSupport
import Foundation
import OpenCombine

enum CombineChains {
  typealias Chain<T> = AnyPublisher<T, BenchError>

  /// A deferred future: the body runs on every subscription, and completes at once.
  static func deferredValue<T>(_ value: T) -> Chain<T> {
    Deferred { Future<T, BenchError> { promise in promise(.success(value)) } }.eraseToAnyPublisher()
  }

  /// An `n`-stage chain of the given shape.
  static func chain(_ shape: Shape, _ n: Int, failing: Bool = false) -> Chain<Int> {
    var chain: Chain<Int> =
      failing
      ? Deferred { Future<Int, BenchError> { promise in promise(.failure(.failed)) } }.eraseToAnyPublisher()
      : deferredValue(0)
    for _ in 0..<n {
      switch shape {
      case .map:
        chain = chain.map { $0 &+ 1 }.eraseToAnyPublisher()
      case .mapResult:
        chain = chain.flatMap { incrementResult($0).publisher }.eraseToAnyPublisher()
      case .flatMap:
        chain = chain.flatMap { deferredValue($0 &+ 1) }.eraseToAnyPublisher()
      }
    }
    return chain
  }

  /// An `n`-stage chain whose every `flatMap` returns a deferred future made from a task: the opaque step
  /// `Callbacks.task` calls at every stage.
  static func taskChain(_ n: Int) -> Chain<Int> {
    var chain = deferredValue(0)
    for _ in 0..<n {
      chain = chain.flatMap { value in
        Deferred { Future<Int, BenchError> { promise in OpaqueStep.increment(value, promise) } }
      }
      .eraseToAnyPublisher()
    }
    return chain
  }

  @inline(never)
  static func incrementResult(_ value: Int) -> Result<Int, BenchError> {
    .success(value &+ 1)
  }

  /// Subscribes, passes every event to `blackHole`, and cancels the subscription.
  static func run<T>(_ chain: Chain<T>) {
    let cancellable = chain.sink(receiveCompletion: { blackHole($0) }, receiveValue: { blackHole($0) })
    cancellable.cancel()
  }

  /// `count` deferred futures merged and collected (`flatMap` over a sequence of publishers: OpenCombine has
  /// no `MergeMany`).
  static func all(_ count: Int) -> Chain<[Int]> {
    Publishers.Sequence<[Chain<Int>], BenchError>(sequence: (0..<count).map { deferredValue($0) })
      .flatMap { $0 }
      .collect()
      .eraseToAnyPublisher()
  }

  /// A recursive loop: each iteration is a deferred future whose `flatMap` starts the next iteration.
  static func loop(_ remaining: Int) -> Chain<Int> {
    if remaining == 0 { return deferredValue(0) }
    return deferredValue(remaining - 1).flatMap { loop($0) }.eraseToAnyPublisher()
  }

  /// The iTunes pipeline: request, transport, decode, titles.
  static func lookup(_ term: String, transport: InMemoryTransport) -> AnyPublisher<[String], PipelineError> {
    Deferred {
      Future<Data, PipelineError> { promise in transport.send(SearchRequest(term: term)) { promise($0) } }
    }
    .flatMap { decodeTracks($0).publisher }
    .map(titles)
    .eraseToAnyPublisher()
  }

  static func run<T>(_ chain: AnyPublisher<T, PipelineError>) {
    let cancellable = chain.sink(receiveCompletion: { blackHole($0) }, receiveValue: { blackHole($0) })
    cancellable.cancel()
  }
}
