import LazyPromiseTestSupport
import Synchronization
import Testing

@testable import LazyPromise

/// The transitions of `_GatherStateMachine`, event by event: what each returns for the engine to do (issue 10).
@Suite("gather state machine transitions")
struct GatherStateTests {
  typealias Machine = _GatherStateMachine<Int, TestError>

  /// What an action says, in a form a test can compare: the handles to cancel by identity.
  enum Did: Equatable {
    case none
    case drive
    case finish(decisive: Result<Int, TestError>?, results: [Result<Int, TestError>?], cancel: [ObjectIdentifier])

    init(_ action: Machine.Action) {
      switch action {
      case .none: self = .none
      case .drive: self = .drive
      case .finish(let decisive, let results, let cancel):
        self = .finish(decisive: decisive, results: results, cancel: cancel.map(ObjectIdentifier.init))
      }
    }
  }

  /// What a stop says, in a form a test can compare: the handles by identity, and how many inputs the run still held.
  enum Stopped: Equatable {
    case none
    case interrupt([ObjectIdentifier])
    case cancel([ObjectIdentifier], inputsLetGo: Int)

    init(_ stop: Machine.Stop) {
      switch stop {
      case .none: self = .none
      case .interrupt(let handles): self = .interrupt(handles.map(ObjectIdentifier.init))
      case .cancel(let handles, let ended):
        self = .cancel(handles.map(ObjectIdentifier.init), inputsLetGo: ended.inputs.count)
      }
    }
  }

  /// A machine over `count` inputs that each deliver `count`; its `finish` records what it is called with.
  static func machine(
    _ count: Int, rule: Machine.Rule, limit: Int?, finished: Recorded? = nil
  ) -> Machine {
    let inputs = Array(repeating: Promise<Int, TestError>(value: count), count: count)
    return Machine(inputs, rule: rule, limit: limit) { decisive, results in finished?.record(decisive, results) }
  }

  /// The calls of a machine's `finish`.
  final class Recorded: Sendable {
    let calls = Mutex<[(Result<Int, TestError>?, [Result<Int, TestError>?])]>([])

    func record(_ decisive: Result<Int, TestError>?, _ results: [Result<Int, TestError>?]) {
      calls.withLock { $0.append((decisive, results)) }
    }

    var count: Int { calls.withLock { $0.count } }
  }

  /// A machine whose run has begun and started every input under a handle of its own.
  static func allStarted(_ count: Int, rule: Machine.Rule, finished: Recorded? = nil) -> (Machine, [RunHandle]) {
    var machine = Self.machine(count, rule: rule, limit: nil, finished: finished)
    #expect(Did(machine.begin()) == .drive)
    var handles: [RunHandle] = []
    while let (index, handle) = machine.nextToStart() {
      handles.append(handle)
      #expect(machine.started(index, handle: handle) == .keep)
    }
    #expect(handles.count == count)
    return (machine, handles)
  }

  /// A machine of three inputs whose run has begun, with input 0 running and input 1 still starting.
  static func oneRunningOneStarting(
    rule: Machine.Rule
  ) throws -> (Machine, first: (index: Int, handle: RunHandle), starting: (index: Int, handle: RunHandle)) {
    var machine = Self.machine(3, rule: rule, limit: nil)
    _ = machine.begin()
    let firstTaken = machine.nextToStart()
    let first = try #require(firstTaken)
    #expect(first.index == 0)
    #expect(machine.started(0, handle: first.handle) == .keep)
    let startingTaken = machine.nextToStart()
    let starting = try #require(startingTaken)
    #expect(starting.index == 1)
    return (machine, first, starting)
  }

  static func ids(_ handles: [RunHandle]) -> [ObjectIdentifier] { handles.map(ObjectIdentifier.init) }

  static func isFinished(_ machine: Machine) -> Bool {
    machine.phase == .finished
  }

  @Test("with no inputs, begin finishes at once with no results")
  func noInputsFinishAtBegin() {
    var machine = Self.machine(0, rule: .allSucceed, limit: nil)
    #expect(Did(machine.begin()) == .finish(decisive: nil, results: [], cancel: []))
    #expect(Self.isFinished(machine))
  }

  @Test("begin makes the caller the driver, which gets the inputs in order up to the limit")
  func driverStartsUpToTheLimit() {
    var machine = Self.machine(3, rule: .allSucceed, limit: 2)
    #expect(Did(machine.begin()) == .drive)
    #expect(machine.nextToStart()?.index == 0)
    #expect(machine.nextToStart()?.index == 1)
    #expect(machine.nextToStart() == nil, "two are running: the limit")
    #expect(machine.phase == .running, "the run should still be running")
    #expect(!machine.running.driving)
    #expect(machine.running.nextIndex == 2)
  }

  @Test("a result that frees a place makes its receiver the driver when no one drives")
  func resultMakesTheNextDriver() throws {
    var machine = Self.machine(2, rule: .allSucceed, limit: 1)
    _ = machine.begin()
    let firstTaken = machine.nextToStart()
    let first = try #require(firstTaken)
    #expect(first.index == 0)
    #expect(machine.started(0, handle: first.handle) == .keep)
    #expect(machine.nextToStart() == nil)
    #expect(Did(machine.received(.success(10), from: 0)) == .drive)
    #expect(machine.nextToStart()?.index == 1)
  }

  @Test("a result received while the driver drives leaves the starting to it, and its handle is not kept")
  func synchronousResultWhileDriving() throws {
    var machine = Self.machine(2, rule: .allSucceed, limit: nil)
    _ = machine.begin()
    let firstTaken = machine.nextToStart()
    let first = try #require(firstTaken)
    #expect(first.index == 0)
    #expect(Did(machine.received(.success(10), from: 0)) == .none, "delivered before its run returned")
    #expect(machine.started(0, handle: first.handle) == .delivered, "nothing of it waits on the trampoline")
    let secondTaken = machine.nextToStart()
    let second = try #require(secondTaken)
    #expect(second.index == 1)
    #expect(machine.started(1, handle: second.handle) == .keep)
    #expect(
      Stopped(machine.stop(.cancel)) == .cancel(Self.ids([second.handle]), inputsLetGo: 2),
      "the delivered input is not cancelled")
  }

  /// A combinator's rule, and the results its inputs deliver, in that order, up to the one that ends the run.
  struct RuleCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let rule: @Sendable () -> Machine.Rule
    let count: Int
    let deliveries: [(index: Int, result: Result<Int, TestError>)]
    /// The last delivery's action: the decisive result, or every result; the inputs it cancels, by index.
    let decisive: Result<Int, TestError>?
    let results: [Result<Int, TestError>?]
    let cancelled: [Int]
  }

  static let ruleCases: [RuleCase] = [
    RuleCase(
      testDescription:
        "all: the first failure decides, cancelling the inputs still running but not the one that failed",
      rule: { .allSucceed }, count: 3, deliveries: [(1, .failure(.first))],
      decisive: .failure(.first), results: [], cancelled: [0, 2]),
    RuleCase(
      testDescription: "all: the last success finishes with every result in input order and nothing to cancel",
      rule: { .allSucceed }, count: 3, deliveries: [(2, .success(12)), (0, .success(10)), (1, .success(11))],
      decisive: nil, results: [.success(10), .success(11), .success(12)], cancelled: []),
    RuleCase(
      testDescription: "allSettled: a failure is a result like any other",
      rule: { .allSettle }, count: 2, deliveries: [(0, .failure(.second)), (1, .success(1))],
      decisive: nil, results: [.failure(.second), .success(1)], cancelled: []),
    RuleCase(
      testDescription: "race: the first result decides, failure or not",
      rule: { .first }, count: 2, deliveries: [(1, .failure(.first))],
      decisive: .failure(.first), results: [], cancelled: [0]),
    RuleCase(
      testDescription: "any: a failure waits for the others; the first success decides",
      rule: { .firstSuccess }, count: 3, deliveries: [(0, .failure(.first)), (2, .success(2))],
      decisive: .success(2), results: [], cancelled: [1]),
    RuleCase(
      testDescription: "any: every input failing finishes with every failure",
      rule: { .firstSuccess }, count: 2, deliveries: [(1, .failure(.second)), (0, .failure(.first))],
      decisive: nil, results: [.failure(.first), .failure(.second)], cancelled: []),
    RuleCase(
      testDescription: "first(of:where:): a rejected result waits for the others; an accepted one decides",
      rule: { .firstWhere { $0 == .success(7) } }, count: 3, deliveries: [(0, .success(1)), (2, .success(7))],
      decisive: .success(7), results: [], cancelled: [1]),
    RuleCase(
      testDescription: "first(of:where:): with none accepted, the last result finishes with every result",
      rule: { .firstWhere { $0 == .success(7) } }, count: 2, deliveries: [(0, .success(1)), (1, .failure(.first))],
      decisive: nil, results: [.success(1), .failure(.first)], cancelled: []),
  ]

  @Test("each rule decides the run at the right result", arguments: ruleCases)
  func ruleDecides(_ ruleCase: RuleCase) {
    var (machine, handles) = Self.allStarted(ruleCase.count, rule: ruleCase.rule())
    for (index, result) in ruleCase.deliveries.dropLast() {
      #expect(Did(machine.received(result, from: index)) == .none)
      #expect(!Self.isFinished(machine))
    }
    guard let (index, result) = ruleCase.deliveries.last else { return }
    #expect(
      Did(machine.received(result, from: index))
        == .finish(
          decisive: ruleCase.decisive, results: ruleCase.results,
          cancel: Self.ids(ruleCase.cancelled.map { handles[$0] })))
    #expect(Self.isFinished(machine))
  }

  @Test("interrupt returns the running inputs, marks those started later, and results are still collected")
  func interruptKeepsCollecting() throws {
    var machine = Self.machine(2, rule: .allSucceed, limit: 1)
    _ = machine.begin()
    let firstTaken = machine.nextToStart()
    let first = try #require(firstTaken)
    #expect(first.index == 0)
    #expect(machine.started(0, handle: first.handle) == .keep)
    #expect(Stopped(machine.stop(.interrupt)) == .interrupt(Self.ids([first.handle])))
    #expect(machine.nextToStart() == nil)
    #expect(Did(machine.received(.success(1), from: 0)) == .drive)
    let secondTaken = machine.nextToStart()
    let second = try #require(secondTaken)
    #expect(second.index == 1)
    #expect(machine.started(1, handle: second.handle) == .interrupt)
    #expect(
      Did(machine.received(.success(2), from: 1))
        == .finish(decisive: nil, results: [.success(1), .success(2)], cancel: []))
  }

  @Test(
    "cancel returns the running inputs and the one still starting, and finishes; that one is cancelled again as it returns"
  )
  func cancelFinishes() throws {
    var (machine, first, starting) = try Self.oneRunningOneStarting(rule: .allSucceed)
    #expect(
      Stopped(machine.stop(.cancel)) == .cancel(Self.ids([first.handle, starting.handle]), inputsLetGo: 3),
      "input 1, still starting, is cancelled at once")
    #expect(Self.isFinished(machine))
    #expect(machine.started(1, handle: starting.handle) == .cancel)
    #expect(machine.nextToStart() == nil, "the driver's turn ends")
  }

  @Test("a decision that comes while an input is still starting cancels that input at once")
  func decisionCancelsAStartingInput() throws {
    var (machine, _, starting) = try Self.oneRunningOneStarting(rule: .first)
    // Input 0 delivers from inside input 1's start (it resolved what input 0 waited for).
    #expect(
      Did(machine.received(.success(3), from: 0))
        == .finish(decisive: .success(3), results: [], cancel: Self.ids([starting.handle])))
    #expect(machine.started(1, handle: starting.handle) == .cancel)
    #expect(machine.nextToStart() == nil, "input 2 never starts")
  }

  @Test("a finished run ignores every event: cancel and interrupt return nothing, results no action")
  func finishedIgnoresEverything() {
    var (machine, _) = Self.allStarted(2, rule: .first)
    _ = machine.received(.success(1), from: 0)
    #expect(Self.isFinished(machine))
    #expect(Stopped(machine.stop(.interrupt)) == .none)
    #expect(Stopped(machine.stop(.cancel)) == .cancel([], inputsLetGo: 2), "the run is decided, but not ended yet")
    #expect(Did(machine.received(.success(2), from: 1)) == .none)
    #expect(machine.nextToStart() == nil)
    #expect(Self.isFinished(machine))
  }

  @Test("a run cancelled before it began does nothing when it begins")
  func cancelledBeforeBegin() {
    var machine = Self.machine(2, rule: .allSucceed, limit: nil)
    #expect(Stopped(machine.stop(.cancel)) == .cancel([], inputsLetGo: 2))
    #expect(Did(machine.begin()) == .none)
    #expect(machine.nextToStart() == nil)
  }

  @Test("end hands over the inputs and the function that delivers, once; a second end and a later cancel find none")
  func endHandsOverWhatTheRunHeld() {
    let finished = Recorded()
    var machine = Self.machine(2, rule: .first, limit: nil, finished: finished)
    #expect(machine.inputsForTurn().count == 2)
    #expect(Did(machine.begin()) == .drive)
    #expect(machine.nextToStart()?.index == 0)
    #expect(Did(machine.received(.success(5), from: 0)) == .finish(decisive: .success(5), results: [], cancel: []))
    let held = machine.end()
    #expect(held.inputs.count == 2)
    #expect(machine.inputsForTurn().isEmpty, "a driver's next turn starts nothing")
    held.finish(.success(5), [])
    #expect(finished.count == 1)
    let again = machine.end()
    #expect(again.inputs.isEmpty)
    again.finish(.success(6), [])
    #expect(finished.count == 1, "what a second end hands over delivers nothing")
    #expect(Stopped(machine.stop(.cancel)) == .cancel([], inputsLetGo: 0))
  }

  @Test("a cancel between a decision and its end takes what the run held: the delivery finds nothing to call")
  func cancelBeforeEndWins() {
    let finished = Recorded()
    var (machine, handles) = Self.allStarted(2, rule: .allSucceed, finished: finished)
    #expect(
      Did(machine.received(.failure(.first), from: 0))
        == .finish(decisive: .failure(.first), results: [], cancel: Self.ids([handles[1]])))
    #expect(Stopped(machine.stop(.cancel)) == .cancel([], inputsLetGo: 2))
    machine.end().finish(.failure(.first), [])
    #expect(finished.count == 0)
  }

  @Test("ending a run that was never decided finishes it: every later event is ignored")
  func endFinishesARunningRun() {
    var (machine, _) = Self.allStarted(2, rule: .allSucceed)
    #expect(machine.end().inputs.count == 2)
    #expect(Self.isFinished(machine))
    #expect(Did(machine.received(.success(1), from: 0)) == .none)
  }
}
