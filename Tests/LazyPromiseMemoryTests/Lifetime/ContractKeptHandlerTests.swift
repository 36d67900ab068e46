import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 6.6 (issue 21, item 3): once a run is cancelled or has delivered, a completion handler that its
/// task keeps reaches nothing the run built, except a small object that ignores a late call. The task here is a
/// mailbox's, which keeps every handler it is given and never lets one go, and which its own promise's task holds:
/// a run that kept hold of that promise would keep the mailbox alive through the handler, for good.
///
/// Each operator runs over the mailbox's promise; the run is then cancelled, cancelled and then called late, or
/// delivered (by calling the kept handlers); then everything is dropped and a weak reference says whether the mailbox
/// was freed. A run that nobody cancels and whose handler is never called may stay alive: that is not tested here.
@Suite("Contract 6.6 — a completion handler a task keeps lets go of a run that has ended")
struct ContractKeptHandlerTests {
  /// Keeps every completion handler its promise's task is given and never lets one go, as a mailbox or a request
  /// registry that never removes its handlers does. Its promise's task holds it.
  final class Mailbox: Sendable {
    private let kept = Mutex<[Promise<Int, TestError>.Completion]>([])

    var promise: Promise<Int, TestError> {
      Promise { [self] completion in kept.withLock { $0.append(completion) } }
    }

    /// Calls every handler kept so far with `result` (those already called ignore it).
    func deliver(_ result: Result<Int, TestError>) {
      for completion in kept.withLock({ $0 }) { completion(result) }
    }
  }

  /// How the run over the mailbox's promise ends.
  enum Ending: CaseIterable, CustomTestStringConvertible {
    /// The run is cancelled; the kept handler is never called.
    case cancelled
    /// The run is cancelled; the kept handler is called afterwards, and ignores it.
    case cancelledThenCalled
    /// The kept handler is called, and the run delivers.
    case delivered

    var testDescription: String {
      switch self {
      case .cancelled: "cancelled"
      case .cancelledThenCalled: "cancelled, then called late"
      case .delivered: "delivered"
      }
    }
  }

  /// Runs what `build` makes of a mailbox's promise, ends the run as `ending` (running `clock`'s work after that,
  /// and before it too when the run `startsOnClock`), drops everything, and expects the mailbox to be freed and the
  /// run to have delivered exactly when it was not cancelled.
  static func expectMailboxFreed<U, F>(
    _ ending: Ending, clock: VirtualScheduler? = nil, startsOnClock: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation, _ build: (Promise<Int, TestError>) -> Promise<U, F>
  ) {
    expectMailboxFreed(ending, clock: clock, startsOnClock: startsOnClock, sourceLocation: sourceLocation) {
      mailbox, delivered in
      build(mailbox.promise).run { _ in delivered() }
    }
  }

  /// As above, for a run that `start` begins over a mailbox, calling its second argument when it delivers.
  static func expectMailboxFreed(
    _ ending: Ending, clock: VirtualScheduler? = nil, startsOnClock: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    start: (Mailbox, _ delivered: @escaping @Sendable () -> Void) -> RunHandle
  ) {
    weak var weakMailbox: Mailbox?
    let delivered = Counter()
    do {
      let mailbox = Mailbox()
      weakMailbox = mailbox
      let handle = start(mailbox) { delivered.increment() }
      if startsOnClock { clock?.run() }
      switch ending {
      case .cancelled:
        handle.cancel()
      case .cancelledThenCalled:
        handle.cancel()
        mailbox.deliver(.success(1))
      case .delivered:
        mailbox.deliver(.success(1))
      }
      clock?.run()
    }
    #expect(delivered.current == (ending == .delivered ? 1 : 0), sourceLocation: sourceLocation)
    #expect(weakMailbox == nil, "the mailbox is still alive", sourceLocation: sourceLocation)
  }

  // MARK: - Combinators

  @Test("6.6 all lets go of its inputs once its run has ended", arguments: Ending.allCases)
  func all(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { Promise.all([$0]) }
    Self.expectMailboxFreed(ending) { Promise.all([$0, Promise(value: 2)], maxConcurrent: 1) }
  }

  @Test("6.6 allSettled lets go of its inputs once its run has ended", arguments: Ending.allCases)
  func allSettled(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { Promise.allSettled([$0]) }
  }

  @Test("6.6 zip lets go of its inputs once its run has ended", arguments: Ending.allCases)
  func zip(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { LazyPromise.zip($0, Promise<Int, TestError>(value: 2)) }
  }

  @Test("6.6 race lets go of its inputs once its run has ended", arguments: Ending.allCases)
  func race(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { Promise.race($0) }
    Self.expectMailboxFreed(ending) { Promise.race([$0]) }
  }

  @Test("6.6 any lets go of its inputs once its run has ended", arguments: Ending.allCases)
  func any(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { Promise.any([$0]) }
  }

  @Test("6.6 reduce lets go of its inputs and its function once its run has ended", arguments: Ending.allCases)
  func reduce(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { Promise.reduce([$0], initial: 0, +) }
    Self.expectMailboxFreed(ending) { Promise.reduce([Promise(value: 2), $0], initial: 0, +) }
  }

  @Test("6.6 retry lets go of its upstream once its run has ended", arguments: Ending.allCases)
  func retry(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { $0.retry(2) }
    let clock = VirtualScheduler()
    Self.expectMailboxFreed(ending, clock: clock) { $0.retry(2, backoff: .constant(.seconds(1)), on: clock) }
  }

  @Test("6.6 retry lets go of its upstream once a retried run has ended", arguments: Ending.allCases)
  func retryAfterAFailure(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { mailbox, delivered in
      let handle = mailbox.promise.retry(2).run { _ in delivered() }
      mailbox.deliver(.failure(.first))  // the first attempt fails: the second starts and keeps its handler too
      return handle
    }
  }

  // MARK: - Time and threads

  @Test("6.6 timeout lets go of its upstream once its run has ended", arguments: Ending.allCases)
  func timeout(_ ending: Ending) {
    let clock = VirtualScheduler()
    Self.expectMailboxFreed(ending, clock: clock) { $0.timeout(.seconds(1), on: clock, error: .second) }
  }

  @Test("6.6 delay lets go of its upstream once its run has ended", arguments: Ending.allCases)
  func delay(_ ending: Ending) {
    let clock = VirtualScheduler()
    Self.expectMailboxFreed(ending, clock: clock) { $0.delay(.seconds(1), on: clock) }
  }

  @Test(
    "6.6 receive(on:) and subscribe(on:) let go of their upstream once their run has ended", arguments: Ending.allCases)
  func threads(_ ending: Ending) {
    let clock = VirtualScheduler()
    Self.expectMailboxFreed(ending, clock: clock) { $0.receive(on: clock) }
    Self.expectMailboxFreed(ending, clock: clock, startsOnClock: true) { $0.subscribe(on: clock) }
  }

  // MARK: - Sharing

  @Test("6.6 shared() lets go of its work once the runs waiting for it have ended", arguments: Ending.allCases)
  func shared(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { $0.shared() }
  }

  @Test(
    "6.6 a shared promise cancelled by one of two runs lets go once the other has ended", arguments: Ending.allCases)
  func sharedByTwoRuns(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { mailbox, delivered in
      let shared = mailbox.promise.shared()
      shared.run { _ in delivered() }.cancel()
      return shared.run { _ in delivered() }
    }
  }

  // MARK: - Tracing

  @Test(
    "6.6 a traced stage returning the mailbox's promise lets go of it once its run has ended",
    arguments: Ending.allCases)
  func tracedJoin(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { promise in
      PromiseTracing.withTracer(SilentTracer()) { Promise<Int, TestError>(value: 0).then { _ in promise } }
    }
  }

  @Test(
    "6.6 a traced stage after the mailbox's promise lets go of it once its run has ended", arguments: Ending.allCases)
  func tracedStage(_ ending: Ending) {
    Self.expectMailboxFreed(ending) { promise in
      PromiseTracing.withTracer(SilentTracer()) { promise.then { $0 + 1 } }
    }
  }
}

/// A tracer that records nothing.
private struct SilentTracer: PromiseTracer {
  func stageStarted(_ stage: PromiseStage) {}
  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Void) {}
}
