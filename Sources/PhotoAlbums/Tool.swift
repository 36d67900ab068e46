import ExampleSupport
import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the tool asks the API on (sessions are made to be reused).
let albumsSession = URLSession.forExamples()

/// What one version delivered, and how long it took.
struct VersionRun: Sendable {
  var version: Version
  var result: Result<[UserWithAlbums], AlbumsError>
  var duration: Duration
}

/// Runs `version` once and waits for its result, timing it from start to delivery.
func timedRun(_ version: Version, from source: AlbumSource) async -> VersionRun {
  let start = ContinuousClock.now
  let result = await withCheckedContinuation { done in
    version.run(from: source) { done.resume(returning: $0) }
  }
  return VersionRun(version: version, result: result, duration: start.duration(to: .now))
}

/// The tool: reads `arguments` (without the program's name), runs the versions one after another, checks they
/// agree, and prints the summary or the error.
///
/// - Returns: The exit status: 0 when it printed the summary, 1 when a version failed or the versions disagreed,
///   2 when the command line could not be read.
func runTool(_ arguments: [String], console: Console = .standard, session: URLSession = albumsSession) async -> Int32 {
  let options: Options
  do {
    switch try Options.parse(arguments) {
    case .help:
      console.write(Options.usage)
      return 0
    case .merge(let parsed):
      options = parsed
    }
  } catch {
    console.report("error: \(error)")
    console.report(Options.synopsis)
    return 2
  }
  let source =
    options.baseURL.map { AlbumSource.live(baseURL: $0, session: session, timeout: options.timeout) }
    ?? .recorded(latency: options.latency)
  if options.verbose { console.report("source     \(describe(source))") }
  var runs: [VersionRun] = []
  for version in options.versions {
    let run = await timedRun(version, from: source)
    if options.verbose { console.report(logLine(run)) }
    runs.append(run)
  }
  if let failure = runs.lazy.compactMap({ $0.result.failure }).first {
    console.report("error: \(failure)")
    return 1
  }
  let merged = runs.compactMap { try? $0.result.get() }
  guard let first = merged.first, merged.allSatisfy({ $0 == first }) else {
    console.report("error: the versions built different results")
    return 1
  }
  summary(first).forEach(console.write)
  return 0
}

/// `recorded answers (latency 0 ms)`, or `GET https://…/{users,albums,photos}`.
func describe(_ source: AlbumSource) -> String {
  switch source {
  case .recorded(let latency):
    return "recorded answers (latency \(Int(milliseconds(latency))) ms)"
  case .live(let baseURL, _, _):
    return "GET \(baseURL.appending(path: "{users,albums,photos}").absoluteString.removingPercentEncoding ?? "")"
  }
}

/// `zip           4.211 ms  ok`.
func logLine(_ run: VersionRun) -> String {
  let name = run.version.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
  let outcome = run.result.failure == nil ? "ok" : "failed"
  return "\(name)\(String(format: "%10.3f", milliseconds(run.duration))) ms  \(outcome)"
}

/// `duration` in milliseconds.
func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
}

extension Result {
  /// The error of a failure, `nil` for a success.
  var failure: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
