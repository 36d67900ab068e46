import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// A temporary mapped future's lazy view, resolved on another thread while the view's runs start (contract 20.6;
/// CI runs this suite under the thread sanitizer).
@Suite("20.6 A temporary future's lazy view, resolved on another thread")
struct FutureTemporaryViewConcurrencyTests {
  @Test("20.6 each run of a temporary mapped view delivers exactly once, whichever thread resolves first")
  func resolveOnAnotherThread() {
    let wrong = Counter()
    let delivered = Counter()
    for round in 0..<200 {
      let (future, resolver) = Future<Int, Never>.makePending()
      let group = DispatchGroup()
      let runs = (0..<3).map { _ in Counter() }
      group.enter()
      group.enter()
      race(
        skew: Int.random(in: -200...200),
        {
          resolver.resolve(round)
          group.leave()
        },
        {
          for counter in runs {
            _ = future.map { $0 + 1 }.promise.run { value in
              if value != round + 1 { _ = wrong.increment() }
              _ = counter.increment()
              _ = delivered.increment()
            }
          }
          group.leave()
        })
      group.wait()
      #expect(runs.allSatisfy { $0.current == 1 })
    }
    #expect(wrong.current == 0)
    #expect(delivered.current == 600)
  }
}
