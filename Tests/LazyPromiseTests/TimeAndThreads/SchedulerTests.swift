import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

@Suite("PromiseScheduler — DispatchQueue")
struct SchedulerTests {
  @Test("a DispatchQueue runs enqueued work on the queue, after enqueue returns")
  func enqueueRunsTheWorkOnTheQueueAfterReturning() async {
    let queue = DispatchQueue(label: "scheduler")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "scheduler")
    let returned = Counter()
    let seen = await withCheckedContinuation { (done: CheckedContinuation<(String?, Int), Never>) in
      queue.async {
        queue.enqueue { done.resume(returning: (DispatchQueue.getSpecific(key: key), returned.current)) }
        returned.increment()
      }
    }
    #expect(seen.0 == "scheduler")
    #expect(seen.1 == 1)
  }

  @Test("a DispatchQueue runs work enqueued after a delay on the queue")
  func enqueueAfterRunsTheWorkOnTheQueue() async {
    let queue = DispatchQueue(label: "scheduler")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "scheduler")
    let seen = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
      _ = queue.enqueue(after: .milliseconds(1)) { done.resume(returning: DispatchQueue.getSpecific(key: key)) }
    }
    #expect(seen == "scheduler")
  }

  @Test("a zero or negative delay runs the work as soon as possible", arguments: [Duration.zero, .seconds(-3)])
  func nonPositiveDelaysRunSoon(delay: Duration) async {
    await confirmation(expectedCount: 1) { ran in
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        _ = DispatchQueue.global().enqueue(after: delay) {
          ran()
          done.resume()
        }
      }
    }
  }

  @Test("work on a DispatchQueue cancelled before it is due never runs, and cancelling twice is harmless")
  func cancelledWorkNeverRuns() async {
    // Scheduled and cancelled from inside a serial queue's work item, the timer cannot fire in between.
    let queue = DispatchQueue(label: "scheduler")
    let ran = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      queue.async {
        let timer = queue.enqueue(after: .zero) { ran.increment() }
        timer.cancel()
        timer.cancel()
        _ = queue.enqueue(after: .milliseconds(1)) { done.resume() }
      }
    }
    #expect(ran.current == 0)
  }

  @Test("a DispatchQueue accepts a very long delay, and the work can be cancelled")
  func aVeryLongDelayIsAcceptedAndCancellable() {
    let timer = DispatchQueue.global().enqueue(after: .seconds(Int64.max)) {
      Issue.record("a cancelled timer must not fire")
    }
    timer.cancel()
  }
}
