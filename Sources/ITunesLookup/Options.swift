import ExampleSupport
import Foundation

/// The tool's settings, read from its command line by ``parse(_:)``.
struct Options: ToolOptions, Equatable, Sendable {
  /// The artist (and entity) to look up.
  var query = LookupQuery(id: "909253")
  /// The genre the artist must have.
  var genre = "Rock"
  /// The lookup API to ask, or `nil` for the recorded answers.
  var baseURL: URL? = nil
  /// Seconds the whole lookup may take before it is cancelled.
  var timeout: TimeInterval = 10
  /// Whether to log each stage with its duration.
  var verbose = false

  /// The real iTunes lookup API, asked by `--live`.
  static let apiURL = URL(string: "https://itunes.apple.com")!

  /// The text `--help` prints.
  static let usage = """
    usage: itunes-lookup [--live] [--id ID] [--entity NAME] [--genre NAME] [--base-url URL]
                         [--timeout SECONDS] [--verbose] [--help]

    Looks an artist up on the iTunes lookup API, picks the result in a genre, prints its name.
    Without --live or --base-url it answers from the recorded responses, with no network.

      --live             ask the real API (https://itunes.apple.com/lookup)
      --id ID            the artist id (default 909253, Jack Johnson)
      --entity NAME      also look up the artist's entries of this kind; album lists the albums
      --genre NAME       the genre to pick (default Rock; case does not matter)
      --base-url URL     ask the lookup API at URL instead, e.g. http://127.0.0.1:8080
      --timeout SECONDS  how long the lookup may take (default 10); then it is cancelled
      --verbose          log each stage and its duration to standard error
      --help             print this help
    """

  /// The first two lines of ``usage``, printed after a usage error.
  static var synopsis: String {
    usage.split(separator: "\n").prefix(2).joined(separator: "\n")
  }

  /// What the command line asks for.
  enum Command: Equatable, Sendable {
    /// Print the usage.
    case help
    /// Look up with these options.
    case lookup(Options)
  }

  /// Reads `arguments` (without the program's name). Options take their value as the next
  /// argument or after `=` (`--id 909253`, `--id=909253`); `--live`, `--base-url`, `--timeout` and `--verbose` are
  /// read as in every example (`readCommandLine`, in ExampleSupport).
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var options = Options()
    let proceed = try readCommandLine(arguments, into: &options, apiURL: apiURL) {
      (options, argument) throws(UsageError) -> Bool in
      switch argument.name {
      case "--id":
        let id = try argument.value()
        guard !id.isEmpty, id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
          throw UsageError("--id wants a numeric artist id, not '\(id)'")
        }
        options.query.id = id
      case "--entity":
        let entity = try argument.value()
        guard !entity.isEmpty, entity.allSatisfy({ $0.isASCII && $0.isLetter }) else {
          throw UsageError("--entity wants a name like album, not '\(entity)'")
        }
        options.query.entity = entity
      case "--genre":
        let genre = try argument.value()
        guard !genre.isEmpty else { throw UsageError("--genre wants a genre name") }
        options.genre = genre
      default:
        return false
      }
      return true
    }
    return proceed ? .lookup(options) : .help
  }
}
