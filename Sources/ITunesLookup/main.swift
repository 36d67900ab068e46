// itunes-lookup: looks an artist up on the iTunes lookup API and prints its name.
// `swift run itunes-lookup --help` for the options; Docs/Guides/ITunesLookup.md walks the stages.

import Foundation

exit(await runTool(Array(CommandLine.arguments.dropFirst())))
