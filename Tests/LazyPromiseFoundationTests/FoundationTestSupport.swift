import Foundation
import LazyPromise
import LazyPromiseFoundation
import LazyPromiseTestSupport
import LoopbackHTTPServer
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the adapter tests share, as an application would. It has no URL cache: on Linux
/// only such a session's data tasks are cancelled (`URLSession.dataPromise(for:)`).
let testSession = URLSession(configuration: .withoutCache)

extension URLSessionConfiguration {
  /// An ephemeral configuration without a URL cache.
  static var withoutCache: URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return configuration
  }
}

/// Awaits the result of a run, cancelling the run when the awaiting task is cancelled; `nil` then.
func cancellableResult<T: Sendable, E>(of promise: Promise<T, E>) async -> Result<T, E>? {
  let bridge = CancellableBridge<Result<T, E>?>()
  return await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      bridge.start(continuation) { promise.run { bridge.resume(returning: $0) } }
      if Task.isCancelled { bridge.cancel() }
    }
  } onCancel: {
    bridge.cancel()
  }
}

/// A continuation resumed once, and the run it waits for.
final class CancellableBridge<Value: Sendable>: Sendable {
  private let state = Locked<(continuation: CheckedContinuation<Value, Never>?, handle: RunHandle?, cancelled: Bool)>(
    (nil, nil, false))

  /// Stores `continuation`, then starts the run.
  func start(_ continuation: CheckedContinuation<Value, Never>, run: () -> RunHandle) {
    state.withLock { $0.continuation = continuation }
    let handle = run()
    let cancelled = state.withLock { state in
      state.handle = handle
      return state.cancelled
    }
    if cancelled { handle.cancel() }
  }

  /// Resumes the continuation with `value`, unless it was resumed before.
  func resume(returning value: Value) {
    state.withLock { state in
      defer { state.continuation = nil }
      return state.continuation
    }?.resume(returning: value)
  }

  /// Cancels the run (now, or as soon as it starts) and resumes the continuation with `nil`.
  func cancel() where Value: ExpressibleByNilLiteral {
    let handle = state.withLock { state in
      state.cancelled = true
      return state.handle
    }
    handle?.cancel()
    resume(returning: nil)
  }
}

/// `GET <server>/<path>` with `timeout` seconds to answer.
func get(_ baseURL: URL, _ path: String = "lookup", timeout: TimeInterval = 5) -> Promise<Data, HTTPError> {
  testSession.dataPromise(from: baseURL.appending(path: path), timeout: timeout)
}
