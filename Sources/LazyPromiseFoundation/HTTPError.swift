import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a request made with ``Foundation/URLSession/dataPromise(for:)`` did not produce a body.
///
/// Each failure of the request arrives as exactly one of these cases, on the thread that runs the
/// session's delegate queue; the promise never fails with any other error. The description is one
/// line meant for people (`the server answered 404 Not Found`), so a command-line tool can print it
/// as it is.
///
/// ```swift
/// session.dataPromise(for: request).run { result in
///   switch result {
///   case .success(let body): print(body.count, "bytes")
///   case .failure(.badStatus(404, _)): print("not there")
///   case .failure(.timedOut): print("try again later")
///   case .failure(let error): print("error: \(error)")
///   }
/// }
/// ```
public enum HTTPError: Error, Sendable, Hashable {
  /// The request could not be made, and nothing was sent: it has no URL, its URL is not an
  /// `http` or `https` URL with a host, its timeout is not a positive number of seconds, or
  /// URLSession rejected it. `reason` says which.
  case invalidRequest(reason: String)
  /// The request was attempted but the transport failed (connection refused, host not found,
  /// connection lost mid-body, TLS failure, ...). The code is URLSession's own.
  case transportFailed(URLError.Code)
  /// The server answered with a status outside `200...299`; `body` is what it sent with it.
  case badStatus(Int, body: Data)
  /// No answer arrived within the request's `timeoutInterval`.
  case timedOut
  /// The request was cancelled before its answer arrived: its session was invalidated, the task
  /// was cancelled from outside the promise, or a Swift task awaiting a chain whose error type
  /// cannot say "cancelled" was cancelled (cooperative cancellation). Cancelling the run itself
  /// (`RunHandle.cancel()`) delivers nothing.
  case cancelled
}

extension HTTPError: CustomStringConvertible {
  /// One line that says what went wrong, e.g. `the server answered 500 Internal Server Error: "database down"`.
  public var description: String {
    switch self {
    case .invalidRequest(let reason):
      return "the request could not be made: \(reason)"
    case .transportFailed(let code):
      return "the transport failed: \(Self.name(of: code)) (URLError \(code.rawValue))"
    case .badStatus(let status, let body):
      let reason = HTTPURLResponse.localizedString(forStatusCode: status).capitalized
      let preview = Self.preview(of: body)
      return "the server answered \(status) \(reason)" + (preview.isEmpty ? "" : ": \(preview)")
    case .timedOut:
      return "the request timed out"
    case .cancelled:
      return "the request was cancelled"
    }
  }

  /// The first line of `body`, at most 80 characters, quoted; empty for an empty body.
  private static func preview(of body: Data) -> String {
    let text = String(decoding: body.prefix(200), as: UTF8.self)
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return "" }
    return trimmed.count > 80 ? "\"\(trimmed.prefix(80))…\"" : "\"\(trimmed)\""
  }

  /// A readable name for the transport failures a reader is likely to meet.
  private static func name(of code: URLError.Code) -> String {
    switch code {
    case .cannotConnectToHost: return "could not connect to the host"
    case .cannotFindHost, .dnsLookupFailed: return "could not find the host"
    case .networkConnectionLost: return "the connection was lost"
    case .notConnectedToInternet: return "not connected to the internet"
    case .badServerResponse, .cannotParseResponse: return "the server's response could not be read"
    case .secureConnectionFailed: return "the secure connection failed"
    default: return "URLSession reported an error"
    }
  }
}

extension HTTPError {
  /// Maps a URLSession failure to the case that explains it.
  init(_ error: any Error) {
    let error = error as NSError
    var code = error.domain == NSURLErrorDomain ? URLError.Code(rawValue: error.code) ?? .unknown : .unknown
    if code == .unknown, Self.isCutOffBody(error) { code = .networkConnectionLost }
    switch code {
    case .timedOut: self = .timedOut
    case .cancelled: self = .cancelled
    case .badURL, .unsupportedURL:
      self = .invalidRequest(reason: "URLSession rejected the URL (URLError \(code.rawValue))")
    default: self = .transportFailed(code)
    }
  }

  /// Whether `error` is swift-corelibs-foundation's report of a body cut off mid-way.
  ///
  /// Darwin reports it as `networkConnectionLost`; swift-corelibs-foundation maps libcurl's
  /// `CURLE_PARTIAL_FILE` to `unknown` (MultiHandle.swift, `urlErrorCode(for:)`) and keeps only
  /// libcurl's message, "transfer closed with N bytes remaining to read". Recognising that
  /// message gives both platforms the same typed error.
  private static func isCutOffBody(_ error: NSError) -> Bool {
    let message = error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
    return message.hasPrefix("transfer closed with") && message.hasSuffix("remaining to read")
  }
}
