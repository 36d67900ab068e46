import BenchmarkSupport
import LazyPromise

/// Resolutions deferred until the current run has returned: a stand-in for an event loop that completes a future
/// later, on the same thread.
///
/// A stage of `PromiseChains.pendingFutureChain` appends its future's resolver here and returns the future's
/// promise while the future is still pending, so the join really waits. The benchmark drains the queue after
/// `run` returns; each resolution runs the next stage, which appends the next one. The array keeps its capacity,
/// so the queue allocates nothing once warm. Only the benchmark thread touches it.
enum Later {
  nonisolated(unsafe) static var resolutions: [(Future<Int, BenchError>.Resolver, Int)] = []

  /// Resolves every deferred future, including those the resolutions themselves defer.
  static func drain() {
    while let (resolver, value) = resolutions.popLast() {
      resolver.resolve(value)
    }
  }
}
