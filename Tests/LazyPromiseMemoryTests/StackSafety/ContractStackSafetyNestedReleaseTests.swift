import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 6.5 (issue 21, item 4): combinators nested to any depth over a task that keeps its completion
/// handler are released in bounded stack once the run has delivered or was cancelled, and the task lets go of the
/// handler. Each case runs and ends on a 512 KiB thread; 2,000 nested `reduce` levels overflowed one on release.
@Suite("Contract 6.5 — nested combinators over a kept handler are released in bounded stack", .serialized)
struct ContractStackSafetyNestedReleaseTests {
  static let nesting = 100_000
  static let smallStack = 512 * 1024

  /// Keeps the completion handler its promise's task is given, for the test to call, keep or drop.
  final class Mailbox: Sendable {
    private let kept = Mutex<[Promise<Int, TestError>.Completion]>([])

    var promise: Promise<Int, TestError> {
      Promise { [self] completion in kept.withLock { $0.append(completion) } }
    }

    /// Calls the kept handlers with `value`, then lets go of them.
    func deliver(_ value: Int) {
      for completion in drop() { completion(.success(value)) }
    }

    /// Lets go of the kept handlers without calling them; returns them, for a caller that calls them first.
    @discardableResult
    func drop() -> [Promise<Int, TestError>.Completion] {
      kept.withLock { kept in
        defer { kept = [] }
        return kept
      }
    }
  }

  /// The joins of `ContractStackSafetyReleaseTests`: `all`, `zip`, `race`, `reduce`, `retry`.
  static let joins = ContractStackSafetyReleaseTests.joins

  /// How a run over the mailbox's promise ends, on the second 512 KiB thread.
  enum Ending: CaseIterable, CustomTestStringConvertible {
    case delivered, cancelled

    var testDescription: String {
      switch self {
      case .delivered: "delivered"
      case .cancelled: "cancelled"
      }
    }
  }

  @Test(
    "6.5 100,000 nested all, zip, race, reduce and retry over a task that keeps its handler are released, on a 512 KiB thread",
    arguments: Ending.allCases)
  func nestedOverKeptHandler(_ ending: Ending) async {
    for (name, join) in Self.joins {
      let mailbox = Mailbox()
      let live = Counter()
      let delivered = Recorder<String>()
      let handle = Mutex<RunHandle?>(nil)
      await onThread(stackSize: Self.smallStack) {
        let token = LiveToken(live: live, peak: Counter())
        let run = ContractStackSafetyReleaseTests.nested(Self.nesting, mailbox.promise, join).run { result in
          withExtendedLifetime(token) { delivered.append("\(name) \((try? result.get()) ?? -1)") }
        }
        handle.withLock { $0 = run }
      }
      await onThread(stackSize: Self.smallStack) {
        switch ending {
        case .delivered:
          mailbox.deliver(1)
        case .cancelled:
          handle.withLock { $0 }?.cancel()
          mailbox.drop()
        }
        handle.withLock { $0 = nil }
      }
      #expect(delivered.all == (ending == .delivered ? ["\(name) 1"] : []))
      #expect(live.current == 0, "\(name): the run is still alive")
    }
  }
}
