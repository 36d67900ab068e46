import Dispatch
import LazyPromise
import Synchronization
import Testing

// The patterns Docs/Guides/Promise.md ("Getting the value out") gives for the first thing a newcomer writes after
// `run`, when `var total = 0; p.run(some: { total = $0 })` does not compile (issue 14).

private actor Totals {
  var total = 0
  func set(_ value: Int) { total = value }
}

@MainActor private final class Model {
  var total = 0
}

@Suite("Getting a value out of a run — issue 14")
struct GettingTheValueOutTests {
  private let answer = Promise<Int, Never>(value: 42).delay(.milliseconds(1))

  @Test func awaitingTheValue() async {
    let total = await answer.value
    #expect(total == 42)
  }

  @Test func storingIntoAMutex() async {
    let total = Mutex(0)
    await confirmation { delivered in
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        answer.run(some: { value in
          total.withLock { $0 = value }
          delivered()
          done.resume()
        })
      }
    }
    #expect(total.withLock { $0 } == 42)
  }

  @Test func handingToAnActor() async {
    let totals = Totals()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      answer.run(some: { value in
        Task {
          await totals.set(value)
          done.resume()
        }
      })
    }
    #expect(await totals.total == 42)
  }

  @Test @MainActor func updatingMainActorStateThroughTheMainQueue() async {
    let model = Model()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      answer.receive(on: DispatchQueue.main)
        .run(some: { value in
          MainActor.assumeIsolated { model.total = value }
          done.resume()
        })
    }
    #expect(model.total == 42)
  }
}
