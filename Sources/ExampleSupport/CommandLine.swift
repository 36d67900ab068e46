import Foundation

/// A command line a tool cannot read; the tool prints it with the usage and exits with 2.
///
/// ```swift
/// throw UsageError("--id wants a numeric artist id, not 'abc'")
/// ```
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, e.g. `unknown argument '--colour'`.
  public var description: String

  /// A usage error that says `description`.
  public init(_ description: String) { self.description = description }
}

/// The settings both example tools read the same way: `--live`, `--base-url`, `--timeout`, `--verbose`.
public protocol ToolOptions {
  /// The API to ask, or `nil` for the recorded answers.
  var baseURL: URL? { get set }
  /// Seconds the tool gives the API (each tool says what for).
  var timeout: TimeInterval { get set }
  /// Whether to log what the tool does to standard error.
  var verbose: Bool { get set }
}

/// One option being read: its name, and its value, written after `=` or as the next argument.
public struct Argument {
  /// The option's name, e.g. `--id` for both `--id 909253` and `--id=909253`.
  public let name: String
  private let inline: String?
  private var rest: ArraySlice<String>

  fileprivate init(_ argument: String, rest: ArraySlice<String>) {
    if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
      name = String(argument[..<equals])
      inline = String(argument[argument.index(after: equals)...])
    } else {
      name = argument
      inline = nil
    }
    self.rest = rest
  }

  /// The option's value: after `=`, or the next argument unless that is another option.
  ///
  /// - Throws: `UsageError("<name> needs a value")` when there is none.
  public mutating func value() throws(UsageError) -> String {
    if let inline { return inline }
    guard let next = rest.first, !next.hasPrefix("--") else { throw UsageError("\(name) needs a value") }
    rest.removeFirst()
    return next
  }

  /// Checks that a flag was written without a value.
  ///
  /// - Throws: `UsageError("<name> takes no value")` for `--verbose=yes`.
  public func flag() throws(UsageError) {
    if inline != nil { throw UsageError("\(name) takes no value") }
  }

  fileprivate var remaining: ArraySlice<String> { rest }
}

/// Reads `arguments` (without the program's name) into `options`: the shared options here, each other one through
/// `readOption`, which returns `false` for a name it does not know.
///
/// ```swift
/// var options = Options()
/// let help = try readCommandLine(arguments, into: &options, apiURL: Options.apiURL) { options, argument in
///   guard argument.name == "--id" else { return false }
///   options.id = try argument.value()
///   return true
/// }
/// ```
///
/// - Returns: `false` when the command line asks for `--help` (or `-h`), `true` otherwise.
/// - Throws: A `UsageError` naming the first argument that cannot be read.
public func readCommandLine<Options: ToolOptions>(
  _ arguments: [String], into options: inout Options, apiURL: URL,
  readOption: (inout Options, inout Argument) throws(UsageError) -> Bool
) throws(UsageError) -> Bool {
  var live = false
  var rest = arguments[...]
  while let text = rest.popFirst() {
    var argument = Argument(text, rest: rest)
    switch argument.name {
    case "--help", "-h":
      return false
    case "--live":
      try argument.flag()
      live = true
    case "--verbose":
      try argument.flag()
      options.verbose = true
    case "--base-url":
      let text = try argument.value()
      guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
      else { throw UsageError("--base-url wants an http or https URL, not '\(text)'") }
      options.baseURL = url
    case "--timeout":
      let text = try argument.value()
      guard let seconds = TimeInterval(text), seconds > 0, seconds <= 3600 else {
        throw UsageError("--timeout wants seconds between 0 and 3600, not '\(text)'")
      }
      options.timeout = seconds
    default:
      guard try readOption(&options, &argument) else { throw UsageError("unknown argument '\(text)'") }
    }
    rest = argument.remaining
  }
  if live && options.baseURL == nil { options.baseURL = apiURL }
  return true
}
