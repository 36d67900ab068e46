import Dispatch
import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// Contract 6.8: stack safety does not reorder what a run observes. Each program runs at the default stack budget
/// and with the trampoline queuing every hop (budget 0) or most of them, and inside a deep `retry` as the issue's
/// reproduction did; its outcome and side effects must be the same every time.
@Suite("Contract 6.8 — the same outcome at any stack depth", .serialized)
struct ContractStackDepthOrderTests {
  enum E: Error, Equatable { case e21, e2, e4 }

  /// What one run of a program observed: its result and a log of side effects, in order.
  struct Observed: Equatable {
    var result: String
    var log: [String]
  }

  /// Runs `program` at each budget, and deep inside `retry(depth)` over a task that succeeds on its last attempt.
  static func observe(_ program: @escaping @Sendable (Recorder<String>) -> Promise<Int, E>) -> [Observed] {
    var seen: [Observed] = []
    for budget: UInt? in [nil, 0, 256, 2048, 16 * 1024] {
      let log = Recorder<String>()
      let result = Recorder<String>()
      let run = {
        _ = program(log).run { outcome in
          switch outcome {
          case .success(let value): result.append("success(\(value))")
          case .failure(let error): result.append("failure(\(error))")
          }
        }
      }
      if let budget { _withStackBudget(budget, run) } else { run() }
      seen.append(Observed(result: result.all.joined(), log: log.all))
    }
    return seen
  }

  static func failing(_ error: E, _ log: Recorder<String>, _ name: String) -> Promise<Int, E> {
    Promise { completion in
      log.append("start \(name)")
      completion(.failure(error))
    }
  }

  static func succeeding(_ value: Int, _ log: Recorder<String>, _ name: String) -> Promise<Int, E> {
    Promise { completion, onCancel in
      log.append("start \(name)")
      onCancel { log.append("cancel \(name)") }
      completion(.success(value))
    }
  }

  static func pending(_ log: Recorder<String>, _ name: String) -> Promise<Int, E> {
    Promise { _, onCancel in
      log.append("start \(name)")
      onCancel { log.append("cancel \(name)") }
    }
  }

  static func expectSame(_ seen: [Observed], _ expected: Observed) {
    for (index, observed) in seen.enumerated() {
      #expect(observed == expected, "budget #\(index)")
    }
  }

  @Test("6.8 race: a synchronous failure retried wins before the next input starts")
  func raceRetry() {
    let seen = Self.observe { log in
      Promise.race(Self.failing(.e21, log, "a").retry(2), Self.succeeding(33, log, "b"))
    }
    Self.expectSame(
      seen, Observed(result: "failure(e21)", log: ["start a", "start a", "start a"]))
  }

  @Test("6.8 zip: the second input never starts once the first failed synchronously")
  func zipRetry() {
    let seen = Self.observe { log in
      zip(Self.failing(.e21, log, "a").retry(2), Self.succeeding(33, log, "b")).map { $0 + $1 }
    }
    Self.expectSame(
      seen, Observed(result: "failure(e21)", log: ["start a", "start a", "start a"]))
  }

  @Test("6.8 any: the first synchronous success wins")
  func anyFirstSuccess() {
    let seen = Self.observe { log in
      Promise.any([Self.succeeding(1, log, "a").then { $0 + 1 }, Self.succeeding(9, log, "b")])
        .mapError { _ in E.e4 }
    }
    Self.expectSame(seen, Observed(result: "success(2)", log: ["start a"]))
  }

  @Test("6.8 a race inside a zip: the first failure decides")
  func raceInsideZip() {
    let seen = Self.observe { log in
      zip(
        Promise.race(Promise(error: .e4), Self.failing(.e2, log, "b")),
        Self.succeeding(1, log, "c")
      ).map { $0 + $1 }
    }
    Self.expectSame(seen, Observed(result: "failure(e4)", log: []))
  }

  @Test("6.8 all: the running inputs' cancel handlers run before the failure is delivered")
  func allCancelsBeforeDelivery() {
    let seen = Self.observe { log in
      Promise.all([Self.pending(log, "a"), Self.pending(log, "b"), Self.failing(.e2, log, "c")])
        .map { $0.count }
        .always { _ in log.append("delivered") }
    }
    Self.expectSame(
      seen,
      Observed(
        result: "failure(e2)",
        log: ["start a", "start b", "start c", "cancel a", "cancel b", "delivered"]))
  }

  @Test("6.8 a future's observers are called in the order they were added")
  func futureObserverOrder() {
    for budget: UInt in [0, 256, 1 << 30] {
      let log = Recorder<String>()
      _withStackBudget(budget) {
        let (future, resolver) = Future<Int, E>.makePending()
        for index in 0..<4 {
          future.map { $0 + index }.observe { log.append("\(index): \($0)") }
        }
        resolver.resolve(1)
      }
      #expect(log.all == ["0: success(1)", "1: success(2)", "2: success(3)", "3: success(4)"])
    }
  }

  @Test("6.8 shared(): the waiting runs are delivered in the order they began")
  func sharedOrder() {
    for budget: UInt in [0, 256, 1 << 30] {
      let log = Recorder<String>()
      _withStackBudget(budget) {
        let task = ManualTask<Int, E>()
        let shared = task.promise.shared()
        for index in 0..<4 { shared.then { $0 + index }.run { log.append("\(index): \($0)") } }
        task.succeed(1)
      }
      #expect(log.all == ["0: success(1)", "1: success(2)", "2: success(3)", "3: success(4)"])
    }
  }

  @Test("6.8 the issue's reproduction: race and zip retried to any depth answer as at depth 0")
  func deepRetry() {
    for depth in [0, 4, 10, 24, 26, 34, 200] {
      let starts = Counter()
      let b = Promise<Int, E> { completion in
        _ = starts.increment()
        completion(.success(33))
      }
      let a = Promise<Int, E>.catching { () throws(E) -> Int in throw .e21 }.retry(2)
      let raced = Outcome(Promise.race(a, b).retry(depth))
      #expect(raced.result == .failure(.e21), "race at depth \(depth)")
      let zipped = Outcome(zip(a, b).map { $0 + $1 }.retry(depth))
      #expect(zipped.result == .failure(.e21), "zip at depth \(depth)")
      #expect(starts.current == 0, "b never starts, depth \(depth)")
    }
  }
}
