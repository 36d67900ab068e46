import Foundation

/// Why ``decodeJSON(_:from:using:)`` could not turn bytes into a value, and where.
///
/// `path` is where in the document decoding stopped, written like a JSONPath:
/// `$` is the root, `$.results[0].artistName` a key inside the first element of `results`.
/// The error is a plain value, produced synchronously by the decoding step that reports it.
///
/// ```swift
/// switch decodeJSON(Artist.self, from: body) {
/// case .success(let artist): print(artist.artistName)
/// case .failure(.missingKey(let key, let path)): print("no \(key) at \(path)")
/// case .failure(let error): print("error: \(error)")
/// }
/// ```
public enum JSONDecodingError: Error, Sendable, Hashable {
  /// The bytes are not JSON at all; `reason` is the parser's explanation.
  case invalidJSON(reason: String)
  /// An object at `path` has no `key`, and the type requires it.
  case missingKey(String, path: String)
  /// The value at `path` is `null`, but the type requires a `type`.
  case missingValue(type: String, path: String)
  /// The value at `path` is not a `type` (a string where a number belongs, ...).
  case typeMismatch(type: String, path: String)
  /// The value at `path` has the right JSON type but the type rejected it; `reason` says why.
  case invalidValue(reason: String, path: String)
}

extension JSONDecodingError: CustomStringConvertible {
  /// One line that says what failed and where, e.g. `missing key "artistName" at $.results[0]`.
  public var description: String {
    switch self {
    case .invalidJSON(let reason): return "the data is not valid JSON: \(reason)"
    case .missingKey(let key, let path): return "missing key \"\(key)\" at \(path)"
    case .missingValue(let type, let path): return "expected \(type) at \(path), found null"
    case .typeMismatch(let type, let path): return "expected \(type) at \(path)"
    case .invalidValue(let reason, let path): return "invalid value at \(path): \(reason)"
    }
  }
}

extension JSONDecodingError {
  /// Maps an error thrown by `JSONDecoder.decode` for `data` to the case that explains it.
  init(_ error: any Error, decoding data: Data) {
    guard let error = error as? DecodingError else {
      self = .invalidValue(reason: String(describing: error), path: "$")
      return
    }
    switch error {
    case .keyNotFound(let key, let context):
      self = .missingKey(key.stringValue, path: Self.path(context.codingPath))
    case .valueNotFound(let type, let context):
      self = .missingValue(type: "\(type)", path: Self.path(context.codingPath))
    case .typeMismatch(let type, let context):
      self = .typeMismatch(type: "\(type)", path: Self.path(context.codingPath))
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty, let reason = Self.syntaxError(in: data) {
        self = .invalidJSON(reason: reason)
      } else {
        self = .invalidValue(reason: context.debugDescription, path: Self.path(context.codingPath))
      }
    @unknown default:
      self = .invalidValue(reason: "\(error)", path: "$")
    }
  }

  /// The parser's explanation of why `data` is not JSON, or `nil` if it is.
  ///
  /// `JSONDecoder` only says "The given data was not valid JSON."; `JSONSerialization` says where.
  /// Called only on the failure path.
  static func syntaxError(in data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
      return nil
    } catch {
      let error = error as NSError
      return error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    }
  }

  /// `$.results[0].artistName` for the coding path `results`, `0`, `artistName`.
  static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.reduce(into: "$") { path, key in
      if let index = key.intValue { path += "[\(index)]" } else { path += ".\(key.stringValue)" }
    }
  }
}
