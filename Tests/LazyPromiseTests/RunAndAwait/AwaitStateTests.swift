import Testing

@testable import LazyPromise

/// The transitions of `AwaitStateMachine`, which lets an awaiting continuation be resumed exactly once, event by event.
@Suite("await state machine transitions")
struct AwaitStateTests {
  /// A continuation, told apart by its number.
  typealias Machine = AwaitStateMachine<Int>

  static func phase(_ machine: Machine) -> String {
    switch machine.phase {
    case .waitingForStart: "waitingForStart"
    case .started(let continuation): "started(\(continuation))"
    case .resumed: "resumed"
    }
  }

  @Test("a new machine waits for its start, and a resume then finds nothing to resume")
  func resumeBeforeStartFindsNothing() {
    var machine = Machine()
    #expect(Self.phase(machine) == "waitingForStart")
    #expect(machine.resume() == nil)
    #expect(Self.phase(machine) == "waitingForStart", "the start still stores its continuation")
  }

  @Test("the start stores the continuation and the first resume takes it")
  func firstResumeTakesTheContinuation() {
    var machine = Machine()
    machine.start(7)
    #expect(Self.phase(machine) == "started(7)")
    #expect(machine.resume() == 7)
    #expect(Self.phase(machine) == "resumed")
  }

  @Test("every resume after the first finds nothing: the continuation is resumed exactly once")
  func laterResumesFindNothing() {
    var machine = Machine()
    machine.start(7)
    let resumed = (0..<3).compactMap { _ in machine.resume() }
    #expect(resumed == [7])
  }

  @Test("a resume asked for before the start, then the start, then a resume: the continuation is resumed once")
  func cancelledBeforeStart() {
    var machine = Machine()
    #expect(machine.resume() == nil, "the task was cancelled before the operation began")
    machine.start(3)
    #expect(machine.resume() == 3, "the start resumes it with the cancellation")
    #expect(machine.resume() == nil, "the run, cancelled, never delivers; if it did, it would find nothing")
  }
}
