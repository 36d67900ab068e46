import Foundation

/// The tool's settings, read from its command line by ``parse(_:)``.
struct Options: Equatable, Sendable {
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
  /// argument or after `=` (`--id 909253`, `--id=909253`).
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var options = Options()
    var live = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      let (name, inline) = split(argument)
      func value() throws(UsageError) -> String {
        if let inline { return inline }
        guard let next = rest.first, !next.hasPrefix("--") else { throw UsageError("\(name) needs a value") }
        rest.removeFirst()
        return next
      }
      func flag() throws(UsageError) {
        if inline != nil { throw UsageError("\(name) takes no value") }
      }
      switch name {
      case "--help", "-h":
        return .help
      case "--live":
        try flag()
        live = true
      case "--verbose":
        try flag()
        options.verbose = true
      case "--id":
        let id = try value()
        guard !id.isEmpty, id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
          throw UsageError("--id wants a numeric artist id, not '\(id)'")
        }
        options.query.id = id
      case "--entity":
        let entity = try value()
        guard !entity.isEmpty, entity.allSatisfy({ $0.isASCII && $0.isLetter }) else {
          throw UsageError("--entity wants a name like album, not '\(entity)'")
        }
        options.query.entity = entity
      case "--genre":
        let genre = try value()
        guard !genre.isEmpty else { throw UsageError("--genre wants a genre name") }
        options.genre = genre
      case "--base-url":
        let text = try value()
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
        else { throw UsageError("--base-url wants an http or https URL, not '\(text)'") }
        options.baseURL = url
      case "--timeout":
        let text = try value()
        guard let seconds = TimeInterval(text), seconds > 0, seconds <= 3600 else {
          throw UsageError("--timeout wants seconds between 0 and 3600, not '\(text)'")
        }
        options.timeout = seconds
      default:
        throw UsageError("unknown argument '\(argument)'")
      }
    }
    if live && options.baseURL == nil { options.baseURL = apiURL }
    return .lookup(options)
  }

  /// `--id=909253` as (`--id`, `909253`); anything else as (itself, `nil`).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}

/// A command line the tool cannot read; the tool prints it with the usage and exits with 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, e.g. `unknown argument '--colour'`.
  var description: String

  init(_ description: String) { self.description = description }
}
