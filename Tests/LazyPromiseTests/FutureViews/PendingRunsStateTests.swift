import Testing

@testable import LazyPromise

/// The transitions of `PendingRunsStateMachine`: a pending future's first waiting run in the table's slot, the
/// later ones in a list.
@Suite("Pending runs — the state machine of a pending future's waiting runs")
struct PendingRunsStateTests {
  static func node(cancelled: Bool = false) -> _PendingRun {
    let handle = RunHandle()
    if cancelled { handle.cancel() }
    return _PendingRun(handle: handle, generation: 0)
  }

  /// The nodes the list hands over, in order, unlinking them as the engine does.
  static func walk(_ head: _PendingRun?) -> [ObjectIdentifier] {
    var order: [ObjectIdentifier] = []
    var next = head
    while let node = next {
      order.append(ObjectIdentifier(node))
      next = node.next.take()
    }
    return order
  }

  /// A machine whose slot is taken, with `nodes` linked after it.
  static func machine(waiting nodes: [_PendingRun]) -> PendingRunsStateMachine {
    var machine = PendingRunsStateMachine()
    _ = machine.addFirst()
    for node in nodes { _ = machine.add(node) }
    return machine
  }

  @Test("the first run takes the slot and asks to observe the future; later runs are nodes that only wait")
  func firstRunTakesTheSlot() {
    var machine = PendingRunsStateMachine()
    let first = machine.addFirst()
    #expect(first == .waitAndObserve)
    #expect(machine.first == .waiting)
    let second = machine.addFirst()
    #expect(second == nil, "the slot is taken: the run must be a node")
    let node = machine.add(Self.node())
    #expect(node == .wait)
    #expect(machine.phase == .waiting(observed: true))
  }

  @Test(
    "delivery, and a future freed while pending, hand over the slot's run, then the nodes in begin order, and end",
    arguments: [true, false])
  func endHandsOverInBeginOrder(delivering: Bool) {
    let nodes = (0..<5).map { _ in Self.node() }
    var machine = Self.machine(waiting: nodes)
    let waiting = delivering ? machine.deliver() : machine.abandon()
    #expect(waiting.first)
    #expect(Self.walk(waiting.list) == nodes.map(ObjectIdentifier.init))
    #expect(machine.phase == .ended && machine.first == .left)
    #expect(machine.isEmpty)
  }

  @Test("a cancelled node is unlinked wherever it stands; the others keep their order")
  func cancelUnlinks() {
    let nodes = (0..<5).map { _ in Self.node() }
    var machine = Self.machine(waiting: nodes)
    for index in [0, 2, 4] {
      nodes[index].handle?.cancel()
      let unlinked = machine.cancel(nodes[index])
      #expect(unlinked)
      #expect(!nodes[index].isLinked && nodes[index].next == nil && nodes[index].previous == nil)
    }
    let waiting = machine.deliver()
    #expect(Self.walk(waiting.list) == [nodes[1], nodes[3]].map(ObjectIdentifier.init))
  }

  @Test("a cancelled first run leaves the slot, which no later run takes: they queue behind the list")
  func cancelledFirstRunLeavesTheSlot() {
    var machine = Self.machine(waiting: [])
    let interrupted = machine.cancelFirst(isCancelled: false)
    #expect(!interrupted, "an interrupted run still waits")
    let cancelled = machine.cancelFirst(isCancelled: true)
    #expect(cancelled)
    let again = machine.cancelFirst(isCancelled: true)
    #expect(!again)
    #expect(machine.isEmpty)
    let later = machine.addFirst()
    #expect(later == nil)
    let node = machine.add(Self.node())
    #expect(node == .wait, "the future is observed once, for the whole table")
    let waiting = machine.deliver()
    #expect(!waiting.first && waiting.list != nil)
  }

  @Test("an interrupted node stays in the list")
  func interruptedNodeStays() {
    let node = Self.node()
    var machine = Self.machine(waiting: [node])
    let unlinked = machine.cancel(node)
    #expect(!unlinked)
    let waiting = machine.deliver()
    #expect(Self.walk(waiting.list) == [ObjectIdentifier(node)])
  }

  @Test("a node cancelled twice, or after the delivery, is not unlinked again")
  func cancelIsIdempotent() {
    let cancelled = Self.node(cancelled: true)
    let late = Self.node()
    var machine = Self.machine(waiting: [cancelled, late])
    let unlinked = machine.cancel(cancelled)
    #expect(unlinked)
    let again = machine.cancel(cancelled)
    #expect(!again)
    let waiting = machine.deliver()
    late.handle?.cancel()
    let afterDelivery = machine.cancel(late)
    #expect(!afterDelivery, "after the delivery the list belongs to the one delivering")
    let firstAfterDelivery = machine.cancelFirst(isCancelled: true)
    #expect(!firstAfterDelivery)
    #expect(Self.walk(waiting.list) == [ObjectIdentifier(late)])
  }

  @Test("after the delivery a run is told to deliver at once, and is not linked")
  func addAfterDelivery() {
    var machine = PendingRunsStateMachine()
    _ = machine.deliver()
    let first = machine.addFirst()
    #expect(first == .deliverNow)
    let node = Self.node()
    let added = machine.add(node)
    #expect(added == .deliverNow)
    #expect(!node.isLinked)
    #expect(machine.isEmpty)
  }

  @Test("a future freed while pending hands over its runs once; after a delivery there is nothing to abandon")
  func abandonOnce() {
    var machine = Self.machine(waiting: [Self.node()])
    _ = machine.abandon()
    let again = machine.abandon()
    #expect(!again.first && again.list == nil)
    var delivered = Self.machine(waiting: [Self.node()])
    _ = delivered.deliver()
    let afterDelivery = delivered.abandon()
    #expect(!afterDelivery.first && afterDelivery.list == nil)
  }
}
