import ExampleSupport
import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the tool asks the API on. Sessions are made to be reused, and one per request
/// has a use-after-free history on Linux (swift-corelibs-foundation #4791).
let lookupSession = URLSession.forExamples()

/// The example's pipeline, one stage per line: lookup, decode, model, filter — within
/// `options.timeout` seconds. Nothing runs until the returned promise runs; each run looks up again.
///
/// With a `log`, the stages are built inside `PromiseTracing.withTracer(log)`, so each one logs its duration and
/// outcome when it ends. The time limit runs on `clock` (a `VirtualScheduler` in tests): when it passes, the run
/// fails with `.timedOut` and the request is cancelled.
func pipeline(
  _ options: Options, session: URLSession, log: StageLog? = nil, clock: some PromiseScheduler = DispatchQueue.global()
) -> Promise<Artist, LookupError> {
  // URLSession's own idle timeout is only a backstop, a second after ours: `timeout` below decides.
  let source =
    options.baseURL.map { LookupSource.live(baseURL: $0, session: session, timeout: options.timeout + 1) }
    ?? .recorded
  let stages = {
    Promise<LookupQuery, LookupError>(value: options.query)
      .then { lookUp($0, from: source) }
      .then(decode)
      .then(toModel)
      .then(filter(genre: options.genre, id: options.query.id))
      .timeout(.seconds(options.timeout), on: clock, error: .timedOut(seconds: options.timeout))
  }
  guard let log else { return stages() }
  return PromiseTracing.withTracer(log, stages)
}

/// The tool: reads `arguments` (without the program's name), runs the pipeline, prints the
/// artist's name or the error.
///
/// Cancelling the task that runs it (Ctrl-C does, see `main.swift`) cancels the lookup's request
/// at once and returns 130.
///
/// - Returns: The exit status: 0 when it printed a name, 1 when the lookup failed, 2 when the
///   command line could not be read, 130 when it was cancelled.
func runTool(
  _ arguments: [String], console: Console = .standard, session: URLSession = lookupSession,
  clock: some PromiseScheduler = DispatchQueue.global()
) async -> Int32 {
  let options: Options
  do {
    switch try Options.parse(arguments) {
    case .help:
      console.write(Options.usage)
      return 0
    case .lookup(let parsed):
      options = parsed
    }
  } catch {
    console.report("error: \(error)")
    console.report(Options.synopsis)
    return 2
  }
  let log = options.verbose ? StageLog(console: console) : nil
  if options.verbose {
    let source = options.baseURL.map { "GET \(lookupURL(options.query, baseURL: $0).absoluteString)" }
    console.report("source  \(source ?? "recorded answer for id \(options.query.id)")")
  }
  // One run, awaited: `LookupError` can say `.cancelled`, so cancelling this task ends the await at
  // once and cancels the run (and with it the request).
  switch await pipeline(options, session: session, log: log, clock: clock).result {
  case .success(let artist):
    console.printName(artist)
    return 0
  case .failure(.cancelled):
    console.printError(.cancelled)
    return 130
  case .failure(let error):
    console.printError(error)
    return 1
  }
}
