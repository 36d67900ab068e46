import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the tool asks the API on. Sessions are made to be reused, and one per request
/// has a use-after-free history on Linux (swift-corelibs-foundation #4791).
let lookupSession = URLSession(configuration: .ephemeral)

/// The example's pipeline, one stage per line: lookup, decode, model, filter. Nothing runs until
/// the returned promise runs; each run looks up again.
///
/// With a `log`, each stage logs its duration.
func pipeline(_ options: Options, session: URLSession, log: StageLog? = nil) -> Promise<Artist, LookupError> {
  let source = options.baseURL.map { LookupSource.live(baseURL: $0, session: session, timeout: options.timeout) }
  return timed("lookup", log, lookUp(options.query, from: source ?? .recorded))
    .then(timed("decode", log, decode))
    .then(timed("model", log, toModel))
    .then(timed("filter", log, filter(genre: options.genre, id: options.query.id)))
}

/// The tool: reads `arguments` (without the program's name), runs the pipeline, prints the
/// artist's name or the error.
///
/// - Returns: The exit status: 0 when it printed a name, 1 when the lookup failed, 2 when the
///   command line could not be read.
func runTool(_ arguments: [String], console: Console = .standard, session: URLSession = lookupSession) async -> Int32 {
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
  let printName = timed("print", log, console.printName)
  return await withCheckedContinuation { done in
    pipeline(options, session: session, log: log).run(
      some: { artist in
        printName(artist)
        done.resume(returning: 0)
      },
      none: { error in
        console.printError(error)
        done.resume(returning: 1)
      })
  }
}
