import Dispatch
import LazyPromise
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Contract E1.9: races on one future. Run again under the thread sanitizer by CI (`--filter Concurrency`).
@Suite("Future concurrency — contract E1.9")
struct FutureConcurrencyTests {
  init() { DiagnosticsCollector.install() }  // the losing completions are reported there, not on stderr

  @Test("E1.9 two threads resolving while two observe: one winner, each observer exactly once (100,000 times)")
  func racingResolversAndObservers() async {
    let rounds = 10
    let futuresPerRound = 10_000
    let failures = Counter()
    for _ in 0..<rounds {
      let pending = (0..<futuresPerRound).map { _ in Future<Int, TestError>.makePending() }
      let observed = (0..<futuresPerRound).map { _ in (Observation(), Observation()) }
      await race(threads: 4) { thread in
        for index in 0..<futuresPerRound {
          let (future, resolver) = pending[index]
          switch thread {
          case 0, 1:
            resolver.resolve(thread + 1)
          case 2:
            future.observe { observed[index].0.record($0) }
          default:
            future.map { $0 }.observe { observed[index].1.record($0) }
          }
        }
      }
      for index in 0..<futuresPerRound {
        let winner = (try? pending[index].future.result?.get()) ?? 0
        let (first, second) = observed[index]
        if !(winner == 1 || winner == 2) || !first.sawOnce(winner) || !second.sawOnce(winner) {
          failures.increment()
        }
      }
    }
    #expect(failures.current == 0)
  }

  @Test("E1.9 stages and observers registered while the future completes each run exactly once")
  func registrationsRacingCompletion() async {
    let futures = 5_000
    let registrationsPerThread = 8
    let pending = (0..<futures).map { _ in Future<Int, TestError>.makePending() }
    let calls = (0..<futures).map { _ in Counter() }
    await race(threads: 3) { thread in
      for index in 0..<futures {
        let (future, resolver) = pending[index]
        if thread == 0 {
          resolver.resolve(index)
          continue
        }
        for registration in 0..<registrationsPerThread {
          let count = calls[index]
          if registration % 2 == 0 {
            future.observe { _ in count.increment() }
          } else {
            future.map { $0 }.observe { _ in count.increment() }
          }
        }
      }
    }
    #expect(calls.allSatisfy { $0.current == 2 * registrationsPerThread })
  }

  @Test("E1.9 many threads observing while one completes: every observer runs exactly once")
  func manyObserversRaceOneCompletion() async {
    let futures = 1_000
    let observersPerFuture = 8
    let calls = (0..<futures).map { _ in Counter() }
    let total = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let pending = (0..<futures).map { _ in Future<Int, TestError>.makePending() }
      DispatchQueue.concurrentPerform(iterations: futures * (observersPerFuture + 1)) { index in
        let futureIndex = index % futures
        let (future, resolver) = pending[futureIndex]
        if index / futures == observersPerFuture / 2 {
          resolver.resolve(futureIndex)
        } else {
          future.then { $0 }.observe { result in
            #expect(result == .success(futureIndex))
            calls[futureIndex].increment()
            if total.increment() == futures * observersPerFuture { done.resume() }
          }
        }
      }
    }
    #expect(calls.allSatisfy { $0.current == observersPerFuture })
  }

  @Test("E1.9 a chain completed on one thread while another extends it delivers every stage once")
  func chainExtendedWhileCompleting() async {
    for _ in 0..<2_000 {
      let (root, resolver) = Future<Int, TestError>.makePending()
      let delivered = Counter()
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let finished = Counter()
        DispatchQueue.global().async {
          resolver.resolve(0)
          if finished.increment() == 2 { done.resume() }
        }
        DispatchQueue.global().async {
          var future = root
          for _ in 0..<50 { future = future.map { $0 + 1 } }
          future.observe { result in
            #expect(result == .success(50))
            delivered.increment()
          }
          if finished.increment() == 2 { done.resume() }
        }
      }
      #expect(delivered.current == 1)
    }
  }
}

/// Runs `body` on `threads` new threads at once (each waits until all have started), and waits for them all.
func race(threads: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) async {
  let arrived = Counter()
  await withTaskGroup(of: Void.self) { group in
    for thread in 0..<threads {
      group.addTask {
        await onThread(stackSize: 1 << 20) {
          arrived.increment()
          while arrived.current < threads { sched_yield() }
          body(thread)
        }
      }
    }
  }
}

/// What one observer of a race saw: how many calls, and the last value.
final class Observation: Sendable {
  private let calls = Atomic<Int>(0)
  private let value = Atomic<Int>(0)

  func record(_ result: Result<Int, TestError>) {
    value.store((try? result.get()) ?? -1, ordering: .relaxed)
    calls.add(1, ordering: .releasing)
  }

  func sawOnce(_ expected: Int) -> Bool {
    calls.load(ordering: .acquiring) == 1 && value.load(ordering: .relaxed) == expected
  }
}
