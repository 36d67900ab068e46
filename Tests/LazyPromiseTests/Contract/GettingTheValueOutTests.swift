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

  @Test("9.1 awaiting a promise's value runs it and returns the value")
  func awaitingTheValue() async {
    let total = await answer.value
    #expect(total == 42)
  }

  @Test("4.1 a run's handler stores the value it receives once into a Mutex")
  func storingIntoAMutex() async {
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

  @Test("4.1 a run's handler hands the value it receives to an actor through a Task")
  func handingToAnActor() async {
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

  @Test("2.5 receive(on: DispatchQueue.main) delivers on the main queue, where the handler updates main-actor state")
  @MainActor func updatingMainActorStateThroughTheMainQueue() async {
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
