import BenchmarkSupport
import Foundation

enum AsyncChains {
  /// `n` stages of the given shape awaited in sequence.
  static func chain(_ shape: Shape, _ n: Int) async -> Result<Int, BenchError> {
    var value = 0
    do throws(BenchError) {
      switch shape {
      case .map:
        for _ in 0..<n { value = await increment(value) }
      case .mapResult:
        for _ in 0..<n { value = try await incrementThrowing(value) }
      case .flatMap:
        for _ in 0..<n { value = await incrementNested(value) }
      }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }

  /// `n` stages after a source that fails: the error skips the remaining stages.
  static func failingChain(_ n: Int) async -> Result<Int, BenchError> {
    do throws(BenchError) {
      var value = try await failingSource()
      for _ in 0..<n { value = await increment(value) }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }

  @inline(never)
  static func increment(_ value: Int) async -> Int { value &+ 1 }

  @inline(never)
  static func incrementThrowing(_ value: Int) async throws(BenchError) -> Int { value &+ 1 }

  /// The `T -> Promise` analogue: a step that itself awaits another asynchronous step.
  @inline(never)
  static func incrementNested(_ value: Int) async -> Int { await increment(value) }

  /// `n` stages that each await a task: the opaque step `Callbacks.task` calls, bridged with a continuation.
  static func taskChain(_ n: Int) async -> Result<Int, BenchError> {
    var result = Result<Int, BenchError>.success(0)
    for _ in 0..<n {
      guard case .success(let value) = result else { break }
      result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Int, BenchError>, Never>) in
        OpaqueStep.increment(value) { continuation.resume(returning: $0) }
      }
    }
    return result
  }

  @inline(never)
  static func failingSource() async throws(BenchError) -> Int { throw .failed }

  /// `count` child tasks in a task group, their values collected in order.
  static func all(_ count: Int) async -> [Int] {
    await withTaskGroup(of: (Int, Int).self) { group in
      for index in 0..<count {
        group.addTask { (index, await increment(index)) }
      }
      var values = [Int](repeating: 0, count: count)
      for await (index, value) in group { values[index] = value }
      return values
    }
  }

  /// The loop: `iterations` asynchronous steps awaited in a `while` loop (async code needs no recursion).
  static func loop(_ iterations: Int) async -> Int {
    var remaining = iterations
    while remaining > 0 { remaining = await decrement(remaining) }
    return remaining
  }

  @inline(never)
  static func decrement(_ value: Int) async -> Int { value - 1 }

  /// The iTunes pipeline: the callback transport bridged with a continuation, then decode and titles.
  static func lookup(_ term: String, transport: InMemoryTransport) async -> Result<[String], PipelineError> {
    let request = SearchRequest(term: term)
    let body = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Data, PipelineError>, Never>) in
      transport.send(request) { continuation.resume(returning: $0) }
    }
    return body.flatMap(decodeTracks).map(titles)
  }
}
