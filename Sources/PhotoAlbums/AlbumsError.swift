import LazyPromiseFoundation

/// Everything that can go wrong fetching and merging the data, one case per reason. The description is the one
/// line the tool prints after `error: `.
enum AlbumsError: Error, Hashable, Sendable {
  /// The request for `endpoint` failed.
  case http(HTTPError, Endpoint)
  /// The answer for `endpoint` is not the JSON the example expects.
  case decoding(JSONDecodingError, Endpoint)
  /// The recorded answer for `endpoint` is missing from the example's resources.
  case noRecording(Endpoint)
}

extension AlbumsError: CustomStringConvertible {
  /// One line that says what went wrong, e.g. `the /photos request failed: the request timed out`.
  var description: String {
    switch self {
    case .http(let error, let endpoint):
      return "the /\(endpoint.rawValue) request failed: \(error)"
    case .decoding(let error, let endpoint):
      return "the /\(endpoint.rawValue) answer is not a list of \(endpoint.rawValue): \(error)"
    case .noRecording(let endpoint):
      return "no recorded answer for /\(endpoint.rawValue) in the example's resources"
    }
  }
}
