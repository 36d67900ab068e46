import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// A task that keeps every completion handler it is given and never lets go of one, as a registry that never
/// removes its handlers would: the case where a run could otherwise keep itself alive through its own task.
private final class Mailbox: Sendable {
  private let kept = Mutex<[Promise<Int, TestError>.Completion]>([])

  var promise: Promise<Int, TestError> {
    Promise { [self] completion in keep(completion) }
  }

  func keep(_ completion: @escaping Promise<Int, TestError>.Completion) {
    kept.withLock { $0.append(completion) }
  }

  func deliverAll(_ value: Int) {
    for completion in kept.withLock({ $0 }) { completion(.success(value)) }
  }
}

/// How the run ends before everything but the mailbox's kept handlers is dropped.
enum RunEnd: CaseIterable, Sendable { case cancelled, delivered }

/// Builds a chain on a mailbox's promise, runs it, ends the run as `end` says, drops the chain and the handle, and
/// returns whether the mailbox (and so the run that kept it) is still alive.
private func mailboxOutlivesRun(
  _ end: RunEnd, _ chain: @escaping (Mailbox) -> Promise<Int, TestError>
) -> Bool {
  weak var weakMailbox: Mailbox?
  let delivered = Counter()
  do {
    let mailbox = Mailbox()
    weakMailbox = mailbox
    let handle = chain(mailbox).run { _ in delivered.increment() }
    switch end {
    case .cancelled:
      handle.cancel()
      mailbox.deliverAll(1)  // a late call: ignored
      #expect(delivered.current == 0)
    case .delivered:
      mailbox.deliverAll(1)
      #expect(delivered.current == 1)
    }
  }
  return weakMailbox != nil
}

/// Contract 6.6: once a run is cancelled or has delivered, a completion handler its task kept reaches none of the
/// stages the run ran, so the task (and whatever it captured) is freed with the rest of the chain.
@Suite struct ContractKeptHandlerStageTests {
  @Test(
    "6.6 a kept handler reaches no stage once a run of one value stage after a task has ended",
    arguments: RunEnd.allCases)
  func oneValueStageIsFreed(_ end: RunEnd) {
    #expect(!mailboxOutlivesRun(end) { $0.promise.map { $0 + 1 } })
  }

  @Test(
    "6.6 a kept handler reaches no stage once a run of a fused two-stage segment has ended", arguments: RunEnd.allCases)
  func aFusedSegmentIsFreed(_ end: RunEnd) {
    #expect(!mailboxOutlivesRun(end) { $0.promise.map { $0 + 1 }.map { $0 + 1 } })
  }

  @Test(
    "6.6 a kept handler reaches no stage once a run of segments waiting for each other, 63 to 200 stages, has ended",
    arguments: RunEnd.allCases, [63, 64, 65, 200])
  func segmentsWaitingForEachOtherAreFreed(_ end: RunEnd, _ stages: Int) {
    #expect(
      !mailboxOutlivesRun(end) { mailbox in
        var chain = mailbox.promise
        for _ in 0..<stages { chain = chain.map { $0 + 1 } }
        return chain
      })
  }

  @Test(
    "6.6 a kept handler reaches no stage once a run with a join inside a segment has ended", arguments: RunEnd.allCases,
    [1, 2, 5])
  func aJoinInsideASegmentIsFreed(_ end: RunEnd, _ position: Int) {
    #expect(
      !mailboxOutlivesRun(end) { mailbox in
        var chain = Promise<Int, TestError>(value: 0)
        for index in 0..<6 {
          chain = index == position ? chain.flatMap { _ in mailbox.promise } : chain.map { $0 + 1 }
        }
        return chain
      })
  }

  @Test(
    "6.6 a kept handler reaches no stage once a run with a join at a segment's last stage has ended",
    arguments: RunEnd.allCases)
  func aJoinAtASegmentsLastStageIsFreed(_ end: RunEnd) {
    #expect(
      !mailboxOutlivesRun(end) { mailbox in
        Promise<Int, TestError>(value: 0).map { $0 + 1 }.flatMap { _ in mailbox.promise }
      })
  }

  @Test(
    "6.6 a kept handler reaches no stage once a run of segments around an error stage has ended",
    arguments: RunEnd.allCases)
  func segmentsAroundAnErrorStageAreFreed(_ end: RunEnd) {
    #expect(
      !mailboxOutlivesRun(end) { mailbox in
        mailbox.promise.map { $0 + 1 }.map { $0 + 1 }.mapError { $0 }.map { $0 + 1 }.map { $0 + 1 }
      })
  }

  @Test("6.6 a kept handler reaches no stage once its run is cancelled while the task that keeps it is still running")
  func cancelledWhileItsTaskRuns() {
    // The task keeps its handler, then moves the clock past the timeout, which cancels the run it is part of: the
    // frame that waits for the task's input has not returned yet, and must keep nothing when it does.
    weak var weakMailbox: Mailbox?
    let delivered = Locked<[Result<Int, TestError>]>([])
    do {
      let mailbox = Mailbox()
      weakMailbox = mailbox
      let clock = VirtualScheduler()
      let work = Promise<Int, TestError> { completion in
        mailbox.keep(completion)
        clock.advance(by: .seconds(1))
      }
      let handle = work.map { $0 + 1 }.map { $0 + 1 }.timeout(.seconds(1), on: clock, error: .first).run { result in
        delivered.withLock { $0.append(result) }
      }
      mailbox.deliverAll(10)  // a late call: ignored
      #expect(handle.isDelivered)
    }
    #expect(delivered.withLock { $0 } == [.failure(.first)])
    #expect(weakMailbox == nil)
  }
}
