import Testing

@testable import LazyPromise

/// The transitions of `PendingRunsStateMachine`, the list of a pending future's waiting runs.
@Suite("Pending runs — the state machine of a pending future's waiting runs")
struct PendingRunsStateTests {
  static func run(cancelled: Bool = false) -> _PendingRun {
    let handle = RunHandle()
    if cancelled { handle.cancel() }
    return _PendingRun(handle: handle, generation: 0)
  }

  /// The runs the list hands over, in order, unlinking them as the engine does.
  static func walk(_ head: _PendingRun?) -> [ObjectIdentifier] {
    var order: [ObjectIdentifier] = []
    var next = head
    while let node = next {
      order.append(ObjectIdentifier(node))
      next = node.next.take()
    }
    return order
  }

  @Test("the first run asks to observe the future, the others only wait")
  func firstRunObserves() {
    var machine = PendingRunsStateMachine()
    let first = machine.add(Self.run())
    #expect(first == .waitAndObserve)
    let second = machine.add(Self.run())
    #expect(second == .wait)
    let third = machine.add(Self.run())
    #expect(third == .wait)
    #expect(machine.phase == .waiting(observed: true))
  }

  @Test("delivery hands over the runs in the order they began and ends the list")
  func deliveryInBeginOrder() {
    var machine = PendingRunsStateMachine()
    let runs = (0..<5).map { _ in Self.run() }
    for run in runs { _ = machine.add(run) }
    let head = machine.deliver()
    #expect(Self.walk(head) == runs.map(ObjectIdentifier.init))
    #expect(machine.phase == .ended)
    #expect(machine.isEmpty)
  }

  @Test("a cancelled run is unlinked wherever it stands; the others keep their order")
  func cancelUnlinks() {
    var machine = PendingRunsStateMachine()
    let runs = (0..<5).map { _ in Self.run() }
    for run in runs { _ = machine.add(run) }
    for index in [0, 2, 4] {
      runs[index].handle?.cancel()
      let unlinked = machine.cancel(runs[index])
      #expect(unlinked)
      #expect(!runs[index].isLinked && runs[index].next == nil && runs[index].previous == nil)
    }
    let head = machine.deliver()
    #expect(Self.walk(head) == [runs[1], runs[3]].map(ObjectIdentifier.init))
  }

  @Test("a run that was interrupted, not cancelled, stays in the list")
  func interruptedRunStays() {
    var machine = PendingRunsStateMachine()
    let run = Self.run()
    _ = machine.add(run)
    let unlinked = machine.cancel(run)
    #expect(!unlinked)
    let head = machine.deliver()
    #expect(Self.walk(head) == [ObjectIdentifier(run)])
  }

  @Test("a run cancelled twice, or after the delivery, is not unlinked again")
  func cancelIsIdempotent() {
    var machine = PendingRunsStateMachine()
    let cancelled = Self.run(cancelled: true)
    let late = Self.run()
    _ = machine.add(cancelled)
    _ = machine.add(late)
    let unlinked = machine.cancel(cancelled)
    #expect(unlinked)
    let again = machine.cancel(cancelled)
    #expect(!again)
    let head = machine.deliver()
    late.handle?.cancel()
    let afterDelivery = machine.cancel(late)
    #expect(!afterDelivery, "after the delivery the list belongs to the one delivering")
    #expect(Self.walk(head) == [ObjectIdentifier(late)])
  }

  @Test("the last run cancelled leaves an empty list that still observes the future")
  func emptiedListStaysObserved() {
    var machine = PendingRunsStateMachine()
    let run = Self.run(cancelled: true)
    _ = machine.add(run)
    let unlinked = machine.cancel(run)
    #expect(unlinked)
    #expect(machine.isEmpty)
    let added = machine.add(Self.run())
    #expect(added == .wait, "the future is observed once, for the whole list")
  }

  @Test("after the delivery a run is told to deliver at once, and is not linked")
  func addAfterDelivery() {
    var machine = PendingRunsStateMachine()
    _ = machine.deliver()
    let run = Self.run()
    let added = machine.add(run)
    #expect(added == .deliverNow)
    #expect(!run.isLinked)
    #expect(machine.isEmpty)
  }

  @Test("a future freed while pending hands over its runs once; after a delivery there is nothing to abandon")
  func abandon() {
    var machine = PendingRunsStateMachine()
    let runs = (0..<3).map { _ in Self.run() }
    for run in runs { _ = machine.add(run) }
    let abandoned = machine.abandon()
    #expect(Self.walk(abandoned) == runs.map(ObjectIdentifier.init))
    let again = machine.abandon()
    #expect(again == nil)
    #expect(machine.phase == .ended)
    var delivered = PendingRunsStateMachine()
    _ = delivered.add(Self.run())
    _ = delivered.deliver()
    let afterDelivery = delivered.abandon()
    #expect(afterDelivery == nil)
  }
}
