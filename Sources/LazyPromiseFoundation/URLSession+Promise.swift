import Dispatch
import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// A lazy promise of the body of `request`: nothing is sent until the promise runs, and each
  /// run sends a new request.
  ///
  /// Running the promise creates one data task on this session and resumes it; the result
  /// arrives on the session's delegate queue, and the stages after this one run there too.
  /// Cancelling the run (`RunHandle.cancel()`) cancels the data task; the run's handlers are then
  /// not called. Reuse one session for many promises: it is what URLSession is designed for, and
  /// creating a session per request has a use-after-free history on Linux
  /// (swift-corelibs-foundation #4791).
  ///
  /// ```swift
  /// var request = URLRequest(url: URL(string: "https://itunes.apple.com/lookup?id=909253")!)
  /// request.timeoutInterval = 10
  /// let body = URLSession.shared.dataPromise(for: request)   // nothing sent yet
  /// body.run(some: { print($0.count, "bytes") }, none: { print("error: \($0)") })
  /// ```
  ///
  /// > Important: Running the promise twice sends the request twice.
  ///
  /// > Note: On Linux, swift-corelibs-foundation measures timeouts in whole seconds, so a
  /// > fractional `timeoutInterval` is rounded up (0.5 s waits 1 s); a request never times out
  /// > early.
  ///
  /// > Note: On Linux, FoundationNetworking traps when a data task is cancelled while the
  /// > session's URL cache is being consulted, so on a session with a `urlCache` cancelling the
  /// > run drops the answer but lets the data task run to its answer or timeout. Give sessions
  /// > whose requests are cancelled `configuration.urlCache = nil`.
  ///
  /// - Parameter request: The request to send on each run. Its URL must be an `http` or `https`
  ///   URL with a host; its `timeoutInterval` (more than 0) is the time allowed without an answer.
  /// - Returns: A promise of the response body for a `2xx` answer, failing with the ``HTTPError``
  ///   that explains any other outcome.
  public func dataPromise(for request: URLRequest) -> Promise<Data, HTTPError> {
    Promise { completion, onCancel in
      if let problem = Self.problem(with: request) {
        completion(.failure(.invalidRequest(reason: problem)))
        return
      }
      let gate = AnswerGate()
      let task = self.dataTask(with: Self.adjustedForPlatform(request)) { data, response, error in
        gate.answer()
        completion(Self.result(data: data, response: response, error: error))
      }
      onCancel {
        // `RunHandle.cancel()` may be called from a Swift task's cancellation handler, which holds
        // the task's lock; cancelling the data task there can deadlock (swift-corelibs-foundation
        // #5412). So it is cancelled asynchronously, through the gate.
        DispatchQueue.global().async { gate.cancel(task, of: self) }
      }
      task.resume()
    }
  }

  /// A lazy promise of the body at `url`, fetched with a `GET` on each run.
  ///
  /// The same as ``dataPromise(for:)`` with a plain request: nothing is sent until the promise
  /// runs, the result arrives on the session's delegate queue, and cancelling the run cancels the
  /// request.
  ///
  /// ```swift
  /// let lookup = session.dataPromise(from: url, timeout: 5)
  /// lookup.run(some: { print(String(decoding: $0, as: UTF8.self)) }, none: { print("error: \($0)") })
  /// ```
  ///
  /// - Parameters:
  ///   - url: An `http` or `https` URL with a host.
  ///   - timeout: The time allowed without an answer, in seconds; then the run fails with
  ///     ``HTTPError/timedOut``.
  /// - Returns: A promise of the response body for a `2xx` answer.
  public func dataPromise(from url: URL, timeout: TimeInterval = 60) -> Promise<Data, HTTPError> {
    var request = URLRequest(url: url)
    request.timeoutInterval = timeout
    return dataPromise(for: request)
  }

  /// Why `request` cannot be sent, or `nil` when it can.
  static func problem(with request: URLRequest) -> String? {
    guard let url = request.url else { return "the request has no URL" }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return "\(url.absoluteString) is not an http or https URL"
    }
    guard let host = url.host, !host.isEmpty else { return "\(url.absoluteString) has no host" }
    guard request.timeoutInterval > 0, request.timeoutInterval <= maximumTimeout else {
      return "the timeout must be between 0 and \(Int(maximumTimeout)) seconds, not \(request.timeoutInterval)"
    }
    return nil
  }

  /// The longest timeout accepted, about 31 years: swift-corelibs-foundation converts the timeout
  /// to milliseconds in an `Int`, which traps for infinite or enormous values.
  static let maximumTimeout: TimeInterval = 1_000_000_000

  /// `request` as this platform's URLSession should see it.
  ///
  /// swift-corelibs-foundation counts the timeout in whole seconds and truncates
  /// (`Int(timeoutInterval) * 1000` in HTTPURLProtocol.swift): 0.5 s would time out at once. So on
  /// Linux a fractional timeout is rounded up, and a request never times out early.
  static func adjustedForPlatform(_ request: URLRequest) -> URLRequest {
    #if canImport(FoundationNetworking)
      let whole = request.timeoutInterval.rounded(.up)
      if whole != request.timeoutInterval {
        var request = request
        request.timeoutInterval = whole
        return request
      }
    #endif
    return request
  }

  /// The outcome of one finished data task.
  static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<Data, HTTPError> {
    if let error { return .failure(HTTPError(error)) }
    guard let response = response as? HTTPURLResponse else { return .failure(.transportFailed(.badServerResponse)) }
    let body = data ?? Data()
    guard (200..<300).contains(response.statusCode) else {
      return .failure(.badStatus(response.statusCode, body: body))
    }
    return .success(body)
  }
}

/// Decides, once, between a data task's answer and its cancellation.
///
/// FoundationNetworking (Linux) traps with "a task that in not in the registry" when a task's
/// cancellation reaches the session after the task has left it. Two windows open that way:
/// - the completion: `cancel()` queues its failure on the task's own queue, and the completion's
///   removal from the registry, queued on the session's, can overtake it. `cancel()` and the
///   completion handler hold one lock, so a task is cancelled only before its handler starts, and
///   it cannot finish until `cancel()` has queued its work;
/// - the cache lookup: while a session's URL cache is consulted, on a background queue, a cancel
///   is parked and queued only when the lookup answers, after the transfer has started, unordered
///   with the removal. No lock of ours reaches that queue, so on Linux a task of a session with a
///   URL cache is not cancelled: the run still delivers nothing, and the task runs to its end.
private final class AnswerGate: @unchecked Sendable {
  // An `NSLock`, not a `Mutex`: the thread sanitizer sees a pthread mutex's order, while a contended
  // `Mutex` waits in uninstrumented futex code on Linux. `answered` is touched only under `lock`.
  private let lock = NSLock()
  private var answered = false

  /// Called first in the task's completion handler: from now on the task is never cancelled.
  func answer() {
    lock.withLock { answered = true }
  }

  /// Cancels `task` of `session` unless it has answered, or this platform cannot cancel it safely.
  func cancel(_ task: URLSessionDataTask, of session: URLSession) {
    #if canImport(FoundationNetworking)
      guard session.configuration.urlCache == nil else { return }
    #endif
    lock.withLock {
      if !answered { task.cancel() }
    }
  }
}
