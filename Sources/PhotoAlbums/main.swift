// photo-albums: users, their albums and the albums' photos from JSONPlaceholder, merged three ways — nested
// completion handlers, a sequential promise chain and a parallel `zip` — and summarized.
// `swift run photo-albums --help` for the options; Docs/Examples/PhotoAlbums.md walks the three versions.

import Foundation

exit(await runTool(Array(CommandLine.arguments.dropFirst())))
