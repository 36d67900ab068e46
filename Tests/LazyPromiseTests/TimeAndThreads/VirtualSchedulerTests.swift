import LazyPromise
import LazyPromiseTestSupport
import Testing

@Suite("VirtualScheduler — time that moves only when a test says, contract 8.7")
struct VirtualSchedulerTests {
  @Test("8.7 nothing runs until the clock is advanced")
  func nothingRunsUntilTheClockIsAdvanced() {
    let clock = VirtualScheduler()
    let log = Recorder<String>()
    clock.enqueue { log.append("now") }
    _ = clock.enqueue(after: .seconds(1)) { log.append("later") }
    #expect(log.all.isEmpty)
    #expect(clock.pendingCount == 2)
    clock.advance()
    #expect(log.all == ["now"])
    clock.advance(by: .milliseconds(999))
    #expect(log.all == ["now"])
    clock.advance(by: .milliseconds(1))
    #expect(log.all == ["now", "later"])
    #expect(clock.now == .seconds(1))
    #expect(clock.pendingCount == 0)
  }

  @Test("8.7 work runs in due-time order, and equal times in scheduling order")
  func workRunsInDueTimeOrderAndEqualTimesInSchedulingOrder() {
    let clock = VirtualScheduler()
    let log = Recorder<String>()
    _ = clock.enqueue(after: .seconds(3)) { log.append("c") }
    _ = clock.enqueue(after: .seconds(1)) { log.append("a1") }
    _ = clock.enqueue(after: .seconds(2)) { log.append("b") }
    _ = clock.enqueue(after: .seconds(1)) { log.append("a2") }
    clock.advance(by: .seconds(10))
    #expect(log.all == ["a1", "a2", "b", "c"])
  }

  @Test("8.7 work on a virtual scheduler sees the clock at its due time")
  func workSeesTheClockAtItsDueTime() {
    let clock = VirtualScheduler()
    let seen = Recorder<Duration>()
    _ = clock.enqueue(after: .seconds(2)) { seen.append(clock.now) }
    _ = clock.enqueue(after: .seconds(5)) { seen.append(clock.now) }
    clock.advance(by: .seconds(7))
    #expect(seen.all == [.seconds(2), .seconds(5)])
    #expect(clock.now == .seconds(7))
  }

  @Test("8.7 work scheduled by work within the advanced window runs in the same advance")
  func workScheduledByWorkWithinTheWindowRunsInTheSameAdvance() {
    let clock = VirtualScheduler()
    let log = Recorder<Duration>()
    _ = clock.enqueue(after: .seconds(1)) {
      log.append(clock.now)
      _ = clock.enqueue(after: .seconds(1)) { log.append(clock.now) }
      _ = clock.enqueue(after: .seconds(5)) { log.append(clock.now) }
    }
    clock.advance(by: .seconds(3))
    #expect(log.all == [.seconds(1), .seconds(2)])
    #expect(clock.pendingCount == 1)
    clock.advance(by: .seconds(3))
    #expect(log.all == [.seconds(1), .seconds(2), .seconds(6)])
  }

  @Test("8.7 cancelled work never runs and is released at once")
  func cancelledWorkNeverRunsAndIsReleasedAtOnce() {
    let clock = VirtualScheduler()
    let live = Counter()
    let ran = Counter()
    let token = LiveToken(live: live, peak: Counter())
    let timer = clock.enqueue(after: .seconds(1)) { withExtendedLifetime(token) { _ = ran.increment() } }
    _ = consume token
    #expect(live.current == 1)
    timer.cancel()
    timer.cancel()
    #expect(live.current == 0)
    #expect(clock.pendingCount == 0)
    clock.advance(by: .seconds(2))
    #expect(ran.current == 0)
  }

  @Test("8.7 cancelling work that already ran does nothing")
  func cancellingWorkThatAlreadyRanDoesNothing() {
    let clock = VirtualScheduler()
    let ran = Counter()
    let timer = clock.enqueue(after: .zero) { ran.increment() }
    clock.advance()
    timer.cancel()
    #expect(ran.current == 1)
  }

  @Test("8.7 negative delays and intervals count as zero")
  func negativeDelaysAndIntervalsCountAsZero() {
    let clock = VirtualScheduler()
    let ran = Counter()
    _ = clock.enqueue(after: .seconds(-5)) { ran.increment() }
    clock.advance(by: .seconds(-1))
    #expect(ran.current == 1)
    #expect(clock.now == .zero)
  }

  @Test("8.7 run runs everything, moving the clock to each due time")
  func runRunsEverythingMovingTheClockToEachDueTime() {
    let clock = VirtualScheduler()
    let seen = Recorder<Duration>()
    _ = clock.enqueue(after: .seconds(4)) { seen.append(clock.now) }
    _ = clock.enqueue(after: .seconds(1)) {
      seen.append(clock.now)
      _ = clock.enqueue(after: .seconds(10)) { seen.append(clock.now) }
    }
    clock.run()
    #expect(seen.all == [.seconds(1), .seconds(4), .seconds(11)])
    #expect(clock.pendingCount == 0)
  }

  @Test("8.7 work may schedule and cancel other work from inside work")
  func workMayScheduleAndCancelFromInsideWork() {
    let clock = VirtualScheduler()
    let log = Recorder<String>()
    let victim = clock.enqueue(after: .seconds(2)) { log.append("cancelled work ran") }
    _ = clock.enqueue(after: .seconds(1)) {
      victim.cancel()
      clock.enqueue { log.append("enqueued from work") }
    }
    clock.advance(by: .seconds(5))
    #expect(log.all == ["enqueued from work"])
  }

  @Test("8.7 10,000 timers cancelled in any order leave nothing behind")
  func manyTimersCancelledInAnyOrderLeaveNothingBehind() {
    let clock = VirtualScheduler()
    let ran = Counter()
    var timers = (0..<10_000).map { index in
      clock.enqueue(after: .milliseconds(index % 100)) { ran.increment() }
    }
    timers.shuffle()
    for timer in timers.dropLast() { timer.cancel() }
    #expect(clock.pendingCount == 1)
    clock.run()
    #expect(ran.current == 1)
    #expect(clock.pendingCount == 0)
  }
}
