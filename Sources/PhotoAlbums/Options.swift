import ExampleSupport
import Foundation

/// The tool's settings, read from its command line by ``parse(_:)``.
struct Options: ToolOptions, Equatable, Sendable {
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
  /// (`--only zip`, `--only=zip`); `--live`, `--base-url`, `--timeout` and `--verbose` are read as in every example
  /// (`readCommandLine`, in ExampleSupport).
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var options = Options()
    let proceed = try readCommandLine(arguments, into: &options, apiURL: apiURL) {
      (options, argument) throws(UsageError) -> Bool in
      switch argument.name {
      case "--only":
        let text = try argument.value()
        guard let version = Version(rawValue: text) else {
          throw UsageError("--only wants callbacks, chain or zip, not '\(text)'")
        }
        options.versions = [version]
      case "--latency":
        let text = try argument.value()
        guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
          throw UsageError("--latency wants milliseconds between 0 and 10000, not '\(text)'")
        }
        options.latency = .milliseconds(milliseconds)
      default:
        return false
      }
      return true
    }
    return proceed ? .merge(options) : .help
  }
}
