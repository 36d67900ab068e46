import Foundation

/// The lookup responses that ship with the example, so that it runs without a network.
///
/// Each is a JSON file under `Resources/`, in the shape the iTunes lookup API answers with. They
/// were written for this example from the API's documented shape (the machine they were made on
/// had no internet); `--live` asks the real API.
enum Recordings {
  /// The recorded queries and their files.
  static let files: [LookupQuery: String] = [
    LookupQuery(id: "909253"): "lookup-909253",  // Jack Johnson, Rock
    LookupQuery(id: "909253", entity: "album"): "lookup-909253-album",  // the artist and three albums
    LookupQuery(id: "159260351"): "lookup-159260351",  // Taylor Swift, Pop
    LookupQuery(id: "1"): "lookup-1",  // no such artist: resultCount 0
  ]

  /// The recorded answer to `query`, or ``LookupError/noRecording(_:)``.
  static func response(to query: LookupQuery) -> Result<Data, LookupError> {
    guard let name = files[query],
      let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources"),
      let data = try? Data(contentsOf: url)
    else { return .failure(.noRecording(query)) }
    return .success(data)
  }

  /// The recorded queries, for messages: `1, 159260351, 909253, 909253 (entity album)`.
  static var summary: String {
    let queries = files.keys.map { query in query.entity.map { "\(query.id) (entity \($0))" } ?? query.id }
    return queries.sorted().joined(separator: ", ")
  }
}
