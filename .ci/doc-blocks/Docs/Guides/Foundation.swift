// The names Docs/Guides/Foundation.md's examples use without defining them.
import Foundation
import LazyPromise
import LazyPromiseFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let url = URL(string: "https://itunes.apple.com/lookup?id=909253")!
