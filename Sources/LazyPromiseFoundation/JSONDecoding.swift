import Foundation
import LazyPromise

/// Decodes a `Value` from JSON bytes, with a typed error that says what failed and where.
///
/// Decoding runs synchronously, on the calling thread, when the function is called; nothing is
/// kept. It fits a `then` stage once its error is mapped into the chain's error type, which is what
/// a stage function of your own does in one line:
///
/// ```swift
/// func decode(_ body: Data) -> Result<LookupResponse, AppError> {
///   decodeJSON(LookupResponse.self, from: body).mapError(AppError.decoding)
/// }
/// session.dataPromise(for: request).mapError(AppError.http).then(decode)
/// ```
///
/// - Parameters:
///   - type: The `Decodable` type to decode.
///   - data: The JSON document.
///   - decoder: The decoder to use, for its date and key strategies.
/// - Returns: The value, or the ``JSONDecodingError`` that explains why there is none.
public func decodeJSON<Value: Decodable>(
  _ type: Value.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()
) -> Result<Value, JSONDecodingError> {
  do {
    return .success(try decoder.decode(type, from: data))
  } catch {
    return .failure(JSONDecodingError(error, decoding: data))
  }
}

/// A `then` stage that decodes a `Value` from JSON bytes, its error mapped into the chain's.
///
/// The returned function decodes synchronously on the thread that delivers the bytes (for a
/// URLSession promise, the session's delegate queue), each time it is called.
///
/// ```swift
/// session.dataPromise(for: request)
///   .mapError(AppError.http)
///   .then(decodeJSON(LookupResponse.self, mapError: AppError.decoding))
/// ```
///
/// - Parameters:
///   - type: The `Decodable` type to decode.
///   - decoder: The decoder to use, for its date and key strategies.
///   - mapError: Turns a ``JSONDecodingError`` into the chain's error type.
/// - Returns: A function `Data -> Result<Value, Failure>` for `Promise.then`.
public func decodeJSON<Value: Decodable & SendableMetatype, Failure: Error>(
  _ type: Value.Type, using decoder: JSONDecoder = JSONDecoder(),
  mapError: @escaping @Sendable (JSONDecodingError) -> Failure
) -> @Sendable (Data) -> Result<Value, Failure> {
  { data in decodeJSON(Value.self, from: data, using: decoder).mapError(mapError) }
}
