import Foundation
import LazyPromise
import LazyPromiseFoundation
import LazyPromiseTestSupport
import Testing

/// `OperationQueue+PromiseScheduler.swift`: an `OperationQueue` as a `PromiseScheduler`.
@Suite("PromiseScheduler — OperationQueue")
struct OperationQueueSchedulerTests {
  /// Whether the current work runs on `queue`, read where it runs.
  private static func isCurrent(_ queue: OperationQueue) -> Bool { OperationQueue.current === queue }

  @Test("enqueue runs the work as an operation of the queue")
  func enqueueRunsOnTheQueue() async {
    let queue = OperationQueue()
    let onQueue = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      queue.enqueue { done.resume(returning: Self.isCurrent(queue)) }
    }
    #expect(onQueue)
  }

  @Test("enqueue never runs the work before it returns")
  func enqueueRunsAfterReturning() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let returned = Counter()
    let seen = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
      queue.addOperation {
        queue.enqueue { done.resume(returning: returned.current) }
        returned.increment()
      }
    }
    #expect(seen == 1)
  }

  @Test("enqueue(after:) runs the work on the queue once the delay has passed")
  func enqueueAfterRunsOnTheQueue() async {
    let queue = OperationQueue()
    let onQueue = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      _ = queue.enqueue(after: .milliseconds(1)) { done.resume(returning: Self.isCurrent(queue)) }
    }
    #expect(onQueue)
  }

  @Test("cancelled delayed work never runs, whether or not its operation was already queued")
  func cancelledWorkNeverRuns() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.isSuspended = true  // if the timer fires before the cancel, the operation waits in the queue
    let ran = Counter()
    let timer = queue.enqueue(after: .zero) { ran.increment() }
    timer.cancel()
    timer.cancel()
    queue.isSuspended = false
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      queue.addOperation { done.resume() }
    }
    #expect(ran.current == 0)
  }

  @Test("a promise delivers on the queue with receive(on:)")
  func receiveOnDeliversOnTheQueue() async {
    let queue = OperationQueue()
    let onQueue = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      Promise<Int, Never>(value: 1).receive(on: queue).run { _ in done.resume(returning: Self.isCurrent(queue)) }
    }
    #expect(onQueue)
  }

  @Test("a delay on the queue delivers the value there")
  func delayDeliversOnTheQueue() async {
    let queue = OperationQueue()
    let seen = await withCheckedContinuation { (done: CheckedContinuation<(Int, Bool), Never>) in
      Promise<Int, Never>(value: 7).delay(.milliseconds(1), on: queue).run { result in
        if case .success(let value) = result { done.resume(returning: (value, Self.isCurrent(queue))) }
      }
    }
    #expect(seen.0 == 7)
    #expect(seen.1)
  }
}
