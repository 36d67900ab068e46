import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Races in conversion and combinators (contract 20–25). Run again under the thread sanitizer by CI.
@Suite("Combinator concurrency — contract 20–25")
struct CombinatorConcurrencyTests {
  @Test("20.3 1,000 concurrent runs of a shared promise run its work once and each deliver once")
  func concurrentRunsOfSharedPromise() async {
    for _ in 0..<20 {
      let works = Counter()
      let shared = Promise<Int, TestError> { completion in
        works.increment()
        DispatchQueue.global().async { completion(.success(7)) }
      }
      .shared()
      let deliveries = await runConcurrently(shared, runs: 1_000)
      #expect(works.current == 1)
      #expect(deliveries.allSatisfy { $0 == [.success(7)] })
    }
  }

  @Test("21.2, 22.2, 24.1, 25.1 inputs finishing on many threads deliver each combined run exactly once")
  func combinedRunsDeliverOnce() async {
    let runs = 2_000
    let delivered = Counter()
    let wrong = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.concurrentPerform(iterations: runs) { index in
        let inputs = (0..<4).map { later(index + $0) }
        let check: @Sendable (Bool) -> Void = { right in
          if !right { wrong.increment() }
          if delivered.increment() == runs * 4 { done.resume() }
        }
        switch index % 4 {
        case 0:
          zip(inputs[0], inputs[1], inputs[2], inputs[3]).run { result in
            guard case .success(let (a, b, c, d)) = result else { return check(false) }
            check([a, b, c, d] == Array(index..<index + 4))
          }
        case 1:
          Promise.all(inputs, maxConcurrent: 2).run { check($0 == .success(Array(index..<index + 4))) }
        case 2:
          Promise.race(inputs).run { result in
            check((try? result.get()).flatMap { $0 }.map { (index..<index + 4).contains($0) } == true)
          }
        default:
          Promise.any(inputs).run { check((try? $0.get()).map { (index..<index + 4).contains($0) } == true) }
        }
        for _ in 1..<4 { check(true) }  // each index accounts for four deliveries
      }
    }
    #expect(wrong.current == 0)
  }

  @Test("21.3, 21.4 a zip's failure and a cancellation racing on other threads deliver at most once")
  func failureRacingCancellation() async {
    for _ in 0..<2_000 {
      let delivered = Counter()
      let failing = Promise<Int, TestError> { completion in
        DispatchQueue.global().async { completion(.failure(.first)) }
      }
      let handle = zip(failing, later(1)).run { _ in delivered.increment() }
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
          handle.cancel()
          done.resume()
        }
      }
      #expect(delivered.current <= 1)
    }
  }
}
