import Foundation

/// The tool's settings, read from its command line by ``parse(_:)``.
struct Options: Equatable, Sendable {
  /// The versions to run, in this order.
  var versions = Version.allCases
  /// The API to ask, or `nil` for the recorded answers.
  var baseURL: URL? = nil
  /// Seconds the API has to answer each request.
  var timeout: TimeInterval = 10
  /// How long each recorded answer takes to arrive, to compare the versions as if on a network.
  var latency: Duration = .zero
  /// Whether to log the source and each version's duration.
  var verbose = false

  /// The real JSONPlaceholder API, asked by `--live`.
  static let apiURL = URL(string: "https://jsonplaceholder.typicode.com")!

  /// The text `--help` prints.
  static let usage = """
    usage: photo-albums [--live] [--only VERSION] [--latency MS] [--base-url URL]
                        [--timeout SECONDS] [--verbose] [--help]

    Fetches users, albums and photos from JSONPlaceholder and merges them into users with their albums
    with their photos, three ways: nested completion handlers (callbacks), a sequential promise chain
    (chain) and a parallel zip (zip). All three run and must agree; their common answer is printed
    once: the totals and each user's albums and photos. To see each version and how long it took,
    add --verbose (or pick one with --only).
    Without --live or --base-url it answers from the recorded responses, with no network.

      --live             ask the real API (https://jsonplaceholder.typicode.com)
      --only VERSION     run one version: callbacks, chain or zip (default: all three, which must agree)
      --latency MS       delay each recorded answer by MS milliseconds, as a network would (default 0)
      --base-url URL     ask the API at URL instead, e.g. http://127.0.0.1:8080
      --timeout SECONDS  how long the API has to answer each request (default 10)
      --verbose          log the source and how long each version took to standard error
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
    /// Fetch and merge with these options.
    case merge(Options)
  }

  /// Reads `arguments` (without the program's name). Options take their value as the next argument or after `=`
  /// (`--only zip`, `--only=zip`).
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
      case "--only":
        let text = try value()
        guard let version = Version(rawValue: text) else {
          throw UsageError("--only wants callbacks, chain or zip, not '\(text)'")
        }
        options.versions = [version]
      case "--latency":
        let text = try value()
        guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
          throw UsageError("--latency wants milliseconds between 0 and 10000, not '\(text)'")
        }
        options.latency = .milliseconds(milliseconds)
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
    return .merge(options)
  }

  /// `--only=zip` as (`--only`, `zip`); anything else as (itself, `nil`).
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
