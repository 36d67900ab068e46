// itunes-lookup: looks an artist up on the iTunes lookup API and prints its name.
// `swift run itunes-lookup --help` for the options; Docs/Examples/ITunesLookup.md walks the stages.

import Foundation

// The tool runs in a task so that Ctrl-C can cancel it: the lookup's request is cancelled and the
// tool exits with 130, the shell's status for "interrupted".
let tool = Task { await runTool(Array(CommandLine.arguments.dropFirst())) }
let interrupts = InterruptWatch { tool.cancel() }
let status = await tool.value
interrupts.stop()
exit(status)
