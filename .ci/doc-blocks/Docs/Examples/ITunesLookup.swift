// Docs/Examples/ITunesLookup.md's examples compile in one module with the example's sources (not its main.swift) and
// ExampleSupport's; these are
// the values they use.
import Foundation
import LazyPromise

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let query = LookupQuery(id: "909253")
let source = LookupSource.recorded
let console = Console.standard
let id = "909253"
let genre = "Rock"
let baseURL = URL(string: "https://itunes.apple.com")!
let session = URLSession.shared
