import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

@testable import ITunesLookup

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Ctrl-C", .serialized)
struct InterruptTests {
  @Test("while the watch is on, SIGINT runs its action instead of ending the process", .timeLimit(.minutes(1)))
  func sigintRunsTheAction() async {
    let interrupted = Counter()
    let watch = InterruptWatch { interrupted.increment() }
    // Dispatch registers the source asynchronously; until it has, SIGINT is ignored. Send until it is seen.
    while interrupted.current == 0 {
      kill(getpid(), SIGINT)
      await Task.yield()
    }
    watch.stop()
    #expect(interrupted.current >= 1)
  }
}
