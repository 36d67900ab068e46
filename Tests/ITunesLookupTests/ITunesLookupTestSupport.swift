import ExampleSupport
import Foundation
import LazyPromise
import LoopbackHTTPServer
import Synchronization

@testable import ITunesLookup

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one session the example's tests share.
let testSession = URLSession.forExamples()

/// The bytes of the recorded answer to `query`.
func recorded(_ query: LookupQuery) throws -> Data {
  try Recordings.response(to: query).get()
}

/// The recorded answer to `query`, decoded.
func recordedResponse(_ query: LookupQuery) throws -> LookupResponse {
  try decode(recorded(query)).get()
}
