import Foundation

/// One track of an iTunes Search API lookup, as the pipeline scenario decodes it.
public struct Track: Decodable, Sendable, Equatable {
  /// The track's title.
  public var trackName: String
  /// The performing artist.
  public var artistName: String
  /// The price in the store's currency, when the store lists one.
  public var trackPrice: Double?
}

/// The body of an iTunes Search API response.
public struct SearchResponse: Decodable, Sendable {
  /// How many results `results` holds.
  public var resultCount: Int
  /// The matching tracks.
  public var results: [Track]
}

/// A request the pipeline sends: the lookup URL for a search term.
public struct SearchRequest: Sendable {
  /// The URL the request would fetch.
  public var url: URL

  /// Builds the request for `term` (the pipeline's first stage).
  public init(term: String) {
    var components = URLComponents(string: "https://itunes.apple.com/search")!
    components.queryItems = [
      URLQueryItem(name: "term", value: term), URLQueryItem(name: "entity", value: "song"),
      URLQueryItem(name: "limit", value: "10"),
    ]
    url = components.url!
  }
}

/// The failures of the pipeline scenario.
public enum PipelineError: Error, Equatable, Sendable {
  /// The transport failed.
  case transport
  /// The body was not a search response.
  case decoding
}

/// An in-memory transport: answers every request at once, on the calling thread, with a canned body.
///
/// It stands in for URLSession so that the pipeline measures the promise machinery and JSON decoding rather
/// than the network. Every contender wraps `send` in its own primitive.
public struct InMemoryTransport: Sendable {
  /// The canned response body: ten tracks.
  public let body: Data

  /// A transport answering with the canned ten-track response.
  public init() {
    body = Data(Self.cannedResponse.utf8)
  }

  /// Delivers the canned body to `completion` before returning.
  ///
  /// - Parameters:
  ///   - request: The request; only its presence matters.
  ///   - completion: Called exactly once, synchronously. `@escaping`, as a real transport's is.
  public func send(_ request: SearchRequest, completion: @escaping (Result<Data, PipelineError>) -> Void) {
    completion(.success(body))
  }

  static let cannedResponse: String = {
    let tracks = (1...10).map { index in
      """
      {"wrapperType":"track","kind":"song","artistName":"Artist \(index)","collectionName":"Album \(index)",\
      "trackName":"Track \(index)","trackPrice":1.29,"trackTimeMillis":\(200_000 + index),"country":"USA",\
      "currency":"USD","primaryGenreName":"Rock","isStreamable":true}
      """
    }
    return #"{"resultCount":10,"results":["# + tracks.joined(separator: ",") + "]}"
  }()
}

/// The pipeline's decoding stage: body to tracks, or a typed error.
public func decodeTracks(_ body: Data) -> Result<[Track], PipelineError> {
  do {
    return .success(try JSONDecoder().decode(SearchResponse.self, from: body).results)
  } catch {
    return .failure(.decoding)
  }
}

/// The pipeline's last stage: the titles a list view would show.
public func titles(_ tracks: [Track]) -> [String] {
  tracks.map { "\($0.artistName) – \($0.trackName)" }
}
