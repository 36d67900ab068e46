import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// The transitions of `RetryStateMachine`, event by event: what each returns for the engine to do (issue 10).
@Suite("retry state machine transitions")
struct RetryStateTests {
  typealias Machine = RetryStateMachine<TestError, Int>

  /// The handle the attempt in progress runs under, if an attempt is in progress.
  static func attempt(_ machine: Machine) -> RunHandle? {
    if case .attempting(let child) = machine.phase { child } else { nil }
  }

  /// The phase's name.
  static func phase(_ machine: Machine) -> String { machine.phase.name }

  /// A timer whose cancellations `cancels` counts.
  static func timer(_ cancels: Counter) -> ScheduledWork { ScheduledWork { cancels.increment() } }

  @Test("the first attempt runs under the handle the run was made with")
  func firstAttempt() {
    let first = RunHandle()
    let machine = Machine(retries: 2, first: first, held: 0)
    #expect(Self.attempt(machine) === first)
    #expect(machine.retriesDone == 0)
  }

  @Test("a failure with retries left asks the predicate with the retries left")
  func failureAsks() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 0)
    #expect(machine.failed() == .ask(remaining: 2))
    #expect(Self.phase(machine) == ".deciding")
  }

  @Test("a retry taken at once runs under a new handle and counts, down to the last retry")
  func retryNowCounts() {
    let first = RunHandle()
    var machine = Machine(retries: 2, first: first, held: 0)
    for remaining in [2, 1] {
      #expect(machine.failed() == .ask(remaining: remaining))
      guard case .attempt(let child) = machine.retryNow() else {
        Issue.record("the retry should start")
        return
      }
      #expect(child !== first)
      #expect(Self.attempt(machine) === child)
    }
    #expect(machine.retriesDone == 2)
    #expect(machine.failed() == .deliver, "no retry left")
    #expect(Self.phase(machine) == ".finished")
  }

  @Test("with no retries, the first failure is delivered, and a stop afterwards does nothing")
  func noRetries() {
    var machine = Machine(retries: 0, first: RunHandle(), held: 0)
    #expect(machine.failed() == .deliver)
    #expect(Self.phase(machine) == ".finished")
    guard case .none = machine.stop(.cancel) else {
      Issue.record("a stop after the run finished should do nothing")
      return
    }
    #expect(Self.phase(machine) == ".finished")
  }

  @Test("a retry after a wait waits for retry 1, keeps the armed timer and starts when it fires")
  func retryAfterWait() {
    var machine = Machine(retries: 3, first: RunHandle(), held: 0)
    _ = machine.failed()
    #expect(machine.retryAfterWait(.first) == .wait(retry: 1))
    #expect(Self.phase(machine) == ".waiting")
    #expect(machine.waitingError == .first)
    #expect(machine.armed(Self.timer(Counter()), forRetry: 1) == .keep)
    let child = machine.timerFired()
    #expect(child != nil)
    #expect(Self.attempt(machine) === child)
    #expect(machine.waitingError == nil, "kept in .waiting only")
    #expect(machine.failed() == .ask(remaining: 2))
    #expect(machine.retryAfterWait(.second) == .wait(retry: 2))
  }

  @Test("a timer armed after it fired, or for an earlier retry, is cancelled")
  func lateTimerIsCancelled() {
    var machine = Machine(retries: 3, first: RunHandle(), held: 0)
    _ = machine.failed()
    _ = machine.retryAfterWait(.first)
    #expect(machine.timerFired() != nil, "fired before it was armed")
    #expect(machine.armed(Self.timer(Counter()), forRetry: 1) == .cancel)
    _ = machine.failed()
    _ = machine.retryAfterWait(.first)
    #expect(machine.armed(Self.timer(Counter()), forRetry: 1) == .cancel, "retry 2 is waiting")
    #expect(machine.armed(Self.timer(Counter()), forRetry: 2) == .keep)
  }

  @Test("stopping an attempt stops its handle; its failure is then delivered, and a second stop does nothing")
  func stopAttempt() {
    let first = RunHandle()
    var machine = Machine(retries: 2, first: first, held: 0)
    guard case .stopAttempt(let stopped) = machine.stop(.cancel) else {
      Issue.record("the attempt should be stopped")
      return
    }
    #expect(stopped === first)
    #expect(machine.failed() == .deliver)
    guard case .none = machine.stop(.interrupt) else {
      Issue.record("a second stop should do nothing")
      return
    }
  }

  @Test("stopped while the predicate runs: nothing to stop, and the retry it takes delivers the failure")
  func stopWhileDeciding() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 0)
    _ = machine.failed()
    guard case .none = machine.stop(.interrupt) else {
      Issue.record("nothing runs while the predicate decides")
      return
    }
    guard case .deliver = machine.retryNow() else {
      Issue.record("a retry taken after the stop should deliver")
      return
    }
    #expect(machine.retryAfterWait(.first) == .deliver)
    #expect(machine.retriesDone == 0)
  }

  @Test("an interrupted wait cancels its timer and delivers the error that caused it")
  func interruptedWaitDelivers() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 0)
    let cancels = Counter()
    _ = machine.failed()
    _ = machine.retryAfterWait(.second)
    _ = machine.armed(Self.timer(cancels), forRetry: 1)
    guard case .stopWait(let timer?, deliver: .second?) = machine.stop(.interrupt) else {
      Issue.record("the wait should stop with its timer and its error")
      return
    }
    timer.cancel()
    #expect(cancels.current == 1)
    #expect(machine.waitingError == nil, "kept in .waiting only")
    #expect(machine.timerFired() == nil, "a timer firing after the stop starts nothing")
  }

  @Test("a cancelled wait delivers nothing; its timer, armed only afterwards, is cancelled then")
  func cancelledWaitBeforeArming() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 0)
    _ = machine.failed()
    _ = machine.retryAfterWait(.first)
    guard case .stopWait(timer: nil, deliver: nil) = machine.stop(.cancel) else {
      Issue.record("the wait should stop with no timer and nothing to deliver")
      return
    }
    #expect(machine.armed(Self.timer(Counter()), forRetry: 1) == .cancel)
    #expect(machine.timerFired() == nil)
  }

  @Test("a retry the trampoline deferred runs under the handle retryNow made, stopped or not")
  func deferredAttempt() {
    var machine = Machine(retries: 1, first: RunHandle(), held: 0)
    _ = machine.failed()
    guard case .attempt(let child) = machine.retryNow() else {
      Issue.record("the retry should start")
      return
    }
    #expect(machine.deferredAttempt() === child)
    guard case .stopAttempt(let stopped) = machine.stop(.interrupt) else {
      Issue.record("the retry about to start should be stopped")
      return
    }
    #expect(stopped === child)
    #expect(machine.deferredAttempt() === child)
  }

  @Test("ending the run hands over what it held, once; a success ends it")
  func endHandsOverWhatTheRunHeld() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 7)
    #expect(machine.end() == 7)
    #expect(machine.held == nil)
    #expect(Self.phase(machine) == ".finished")
    #expect(machine.end() == nil, "it was handed over already")
  }

  @Test("a run cancelled while the predicate runs hands over what it held; the retry taken then delivers nothing")
  func cancelledWhileDeciding() {
    var machine = Machine(retries: 2, first: RunHandle(), held: 7)
    _ = machine.failed()
    guard case .none = machine.stop(.cancel) else {
      Issue.record("nothing runs while the predicate decides")
      return
    }
    #expect(machine.end() == 7)
    guard case .deliver = machine.retryNow() else {
      Issue.record("a retry taken after the cancel should not start")
      return
    }
    #expect(machine.end() == nil, "so the engine delivers nothing")
    #expect(machine.failed() == .deliver)
  }
}
