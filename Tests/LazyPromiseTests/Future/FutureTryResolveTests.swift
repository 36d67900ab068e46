import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Future+TryResolve.swift`: `tryComplete`, `tryResolve` and `tryReject`, which say whether they took effect.
@Suite("Future tryResolve — completing a future that others may have completed first")
struct FutureTryResolveTests {
  init() { DiagnosticsCollector.install() }

  @Test("19.2 the first tryResolve completes the future, runs its observers and returns true")
  func firstTryResolveTakesEffect() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let observed = Recorder<Result<Int, TestError>>()
    future.observe { observed.append($0) }
    #expect(resolver.tryResolve(7))
    #expect(observed.all == [.success(7)])
  }

  @Test("19.2 tryResolve, tryReject and tryComplete after a completion return false and change nothing")
  func laterTriesTakeNoEffect() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let observed = Recorder<Result<Int, TestError>>()
    future.observe { observed.append($0) }
    #expect(resolver.tryReject(.first))
    #expect(!resolver.tryResolve(1))
    #expect(!resolver.tryReject(.second))
    #expect(!resolver.tryComplete(.success(2)))
    #expect(future.result == .failure(.first))
    #expect(observed.all == [.failure(.first)])
  }

  @Test("19.2 a try after complete returns false, and a complete after a try is still ignored")
  func triesAndCompletesShareOneFirstCompletion() {
    let (first, firstResolver) = Future<Int, TestError>.makePending()
    firstResolver.complete(.success(1))
    #expect(!firstResolver.tryResolve(2))
    #expect(first.result == .success(1))

    let (second, secondResolver) = Future<Int, TestError>.makePending()
    #expect(secondResolver.tryComplete(.failure(.code(3))))
    secondResolver.resolve(4)
    #expect(second.result == .failure(.code(3)))
  }

  @Test("19.10 tryReject on a cancelled future returns false and the future stays cancelled")
  func tryOnCancelledFutureTakesNoEffect() {
    let (future, resolver) = Future<Int, CancellationError>.makePending()
    future.cancel()
    #expect(!resolver.tryResolve(1))
    #expect(future.isCancelled)
  }

  @Test("19.9 of many threads racing to tryResolve, exactly one is told it took effect")
  func racingTriesHaveExactlyOneWinner() async {
    for _ in 0..<100 {
      let (future, resolver) = Future<Int, TestError>.makePending()
      let winners = Counter()
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        if resolver.tryResolve(index) { winners.increment() }
      }
      #expect(winners.current == 1)
      #expect(future.result != nil)
    }
  }

  #if DEBUG
    @Test("19.2 a late try is not reported as a diagnostic, while a late complete is")
    func lateTryIsNotReported() {
      let (_, resolver) = Future<Int, TestError>.makePending(file: "App/TryResolve.swift", line: 4)
      resolver.resolve(1)
      resolver.tryResolve(2)
      resolver.tryReject(.first)
      #expect(DiagnosticsCollector.reports(at: "App/TryResolve.swift:4").isEmpty)
      resolver.resolve(3)
      #expect(DiagnosticsCollector.reports(at: "App/TryResolve.swift:4").count == 1)
    }
  #endif
}
