import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 6.4–6.5 (issue 13, parts 2 and 3): a run is released in bounded stack however it ends —
/// delivered from another thread, cancelled, or abandoned by its task — and nested `all`/`zip`/`race`/`reduce`/`retry`
/// run, are cancelled and are dropped in bounded stack. Each case runs on a 512 KiB thread.
@Suite("Contract 6 — stack safety of releasing runs and nested joins", .serialized)
struct ContractStackSafetyReleaseTests {
  static let stages = 1_000_000
  static let nesting = 100_000
  static let smallStack = 512 * 1024

  /// Where the root task of `chain` leaves its completion handler, for the test to call, keep or drop.
  final class Mailbox: Sendable {
    private let completions = Mutex<[Promise<Int, TestError>.Completion]>([])

    func put(_ completion: @escaping Promise<Int, TestError>.Completion) {
      completions.withLock { $0.append(completion) }
    }

    func take() -> Promise<Int, TestError>.Completion? {
      completions.withLock { $0.popLast() }
    }
  }

  static let mailbox = Mailbox()

  /// A 1,000,000-stage chain whose task leaves its completion in `mailbox`; built once, run by every test.
  static let chain: Promise<Int, TestError> = {
    var promise = Promise<Int, TestError> { completion, _ in mailbox.put(completion) }
    for _ in 0..<stages { promise = promise.then { $0 + 1 } }
    return promise
  }()

  @Test("6.4 a 1,000,000-stage run completed from another thread delivers and is released, on a 512 KiB thread")
  func millionStageRunDeliveredFromAnotherThread() async {
    let delivered = Recorder<Int>()
    let live = Counter()
    await onThread(stackSize: Self.smallStack) {
      let token = LiveToken(live: live, peak: Counter())
      Self.chain.run { result in withExtendedLifetime(token) { delivered.append((try? result.get()) ?? -1) } }
    }
    await onThread(stackSize: Self.smallStack) {
      Self.mailbox.take()?(.success(0))  // delivers here, then the run's continuations are released here
    }
    #expect(delivered.all == [Self.stages])
    #expect(live.current == 0)
  }

  @Test("6.4 a 1,000,000-stage run whose task completes on a global queue delivers and is released there")
  func millionStageRunDeliveredOnGlobalQueue() async {
    let live = Counter()
    let value: Int = await withCheckedContinuation { done in
      let token = LiveToken(live: live, peak: Counter())
      Self.chain.run { result in withExtendedLifetime(token) { done.resume(returning: (try? result.get()) ?? -1) } }
      let completion = Self.mailbox.take()
      DispatchQueue.global().async { completion?(.success(0)) }
    }
    #expect(value == Self.stages)
    for _ in 0..<200 where live.current != 0 { try? await Task.sleep(for: .milliseconds(10)) }
    #expect(live.current == 0)
  }

  @Test("6.4 a cancelled 1,000,000-stage run is released when its task drops the completion, on a 512 KiB thread")
  func millionStageRunCancelled() async {
    let live = Counter()
    let delivered = Counter()
    let handle = Mutex<RunHandle?>(nil)
    await onThread(stackSize: Self.smallStack) {
      let token = LiveToken(live: live, peak: Counter())
      let run = Self.chain.run { _ in withExtendedLifetime(token) { _ = delivered.increment() } }
      handle.withLock { $0 = run }
    }
    await onThread(stackSize: Self.smallStack) {
      handle.withLock { $0 }?.cancel()
      _ = Self.mailbox.take()  // the task lets go of its completion here: the run is released here
    }
    #expect(delivered.current == 0)
    #expect(live.current == 0)
  }

  @Test("6.4 a 1,000,000-stage run abandoned by its task is released, on a 512 KiB thread")
  func millionStageRunAbandoned() async {
    let live = Counter()
    await onThread(stackSize: Self.smallStack) {
      let token = LiveToken(live: live, peak: Counter())
      Self.chain.run { _ in withExtendedLifetime(token) {} }
    }
    await onThread(stackSize: Self.smallStack) {
      _ = Self.mailbox.take()  // dropped without being called
    }
    #expect(live.current == 0)
  }

  /// `levels` nested joins over `innermost`, built with `join`.
  static func nested(
    _ levels: Int, _ innermost: Promise<Int, TestError>,
    _ join: (Promise<Int, TestError>) -> Promise<Int, TestError>
  ) -> Promise<Int, TestError> {
    var promise = innermost
    for _ in 0..<levels { promise = join(promise) }
    return promise
  }

  static let joins: [(String, @Sendable (Promise<Int, TestError>) -> Promise<Int, TestError>)] = [
    ("all", { Promise.all([$0]).map { $0[0] } }),
    ("zip", { zip($0, Promise(value: 0)).map { $0.0 } }),
    ("race", { Promise.race($0) }),
    ("reduce", { Promise.reduce([$0], initial: 0) { $1 } }),
    ("retry", { $0.retry(1) }),
  ]

  @Test("6.5 100,000 nested all, zip, race, reduce and retry run and deliver, on a 512 KiB thread")
  func nestedJoinsRun() async {
    let delivered = Recorder<String>()
    await onThread(stackSize: Self.smallStack) {
      for (name, join) in Self.joins {
        Self.nested(Self.nesting, Promise(value: 1), join).run { result in
          delivered.append("\(name) \((try? result.get()) ?? -1)")
        }
      }
    }
    #expect(delivered.all == Self.joins.map { "\($0.0) 1" })
  }

  @Test("6.5 100,000 nested all, zip, race, reduce and retry are released without running, on a 512 KiB thread")
  func nestedJoinsDropped() async {
    let finished = Counter()
    await onThread(stackSize: Self.smallStack) {
      for (_, join) in Self.joins {
        var promise: Promise<Int, TestError>? = Self.nested(Self.nesting, Promise(value: 1), join)
        promise = nil
        if promise == nil { finished.increment() }
      }
    }
    #expect(finished.current == Self.joins.count)
  }

  @Test(
    "6.5 100,000 nested all, zip, race, reduce and retry cancelled while pending are released, on a 512 KiB thread")
  func nestedJoinsCancelled() async {
    let live = Counter()
    let cancelHandlers = Counter()
    let delivered = Counter()
    await onThread(stackSize: Self.smallStack) {
      for (_, join) in Self.joins {
        let token = LiveToken(live: live, peak: Counter())
        let pending = Promise<Int, TestError> { completion, onCancel in
          onCancel { withExtendedLifetime(completion) { _ = cancelHandlers.increment() } }
        }
        let handle = Self.nested(Self.nesting, pending, join).run { _ in
          withExtendedLifetime(token) { _ = delivered.increment() }
        }
        handle.cancel()
      }
    }
    #expect(cancelHandlers.current == Self.joins.count)
    #expect(delivered.current == 0)
    #expect(live.current == 0)
  }
}
