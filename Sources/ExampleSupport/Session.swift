import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// A new session for an example tool or its tests: ephemeral, so nothing is kept on disk, and
  /// without a URL cache, so that on Linux a request is cancelled when its run is (see
  /// `URLSession.dataPromise(for:)` in LazyPromiseFoundation). Make one and reuse it.
  ///
  /// ```swift
  /// let session = URLSession.forExamples()
  /// let body = session.dataPromise(from: url, timeout: 10)
  /// ```
  public static func forExamples() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }
}
