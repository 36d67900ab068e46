import LazyPromiseTestSupport
import Testing

@testable import LazyPromise

/// A value stage built on a stage stores nothing for its upstream (`_StageUpstream`: that stage is its `_owner`);
/// one built on a task or a known result stores the `_Source`. These tests build every operator that makes a value
/// stage on each kind of upstream, succeeding and failing, and check both how the stage stores its upstream and what
/// a run of it delivers, alone and as the last stage of a fused segment.
@Suite("A value stage stores its upstream by the kind of promise it was built on, and runs the same either way")
struct StageUpstreamTests {
  /// The promise an operator is built on.
  enum Base: CaseIterable, CustomTestStringConvertible {
    case value, error, task, failingTask, stage, failingStage

    var testDescription: String { "\(self)" }

    /// `1`, or a failure with `.first`.
    var promise: Promise<Int, TestError> {
      switch self {
      case .value: Promise(value: 1)
      case .error: Promise(error: .first)
      case .task: Promise { $0(.success(1)) }
      case .failingTask: Promise { $0(.failure(.first)) }
      case .stage: Promise { $0(.success(0)) }.map { $0 + 1 }
      case .failingStage:
        Promise<Int, TestError> { $0(.success(0)) }.then { _ -> Result<Int, TestError> in .failure(.first) }
      }
    }

    var isStage: Bool { self == .stage || self == .failingStage }
    var fails: Bool { self == .error || self == .failingTask || self == .failingStage }
  }

  /// Every operator that builds a value stage, each adding 1 to a success (or keeping it, for those that cannot).
  static let operators:
    [(name: String, adds: Int, build: @Sendable (Promise<Int, TestError>) -> Promise<Int, TestError>)] = [
      ("map", 1, { $0.map { $0 + 1 } }),
      ("then with a value", 1, { $0.then(addOne) }),
      ("then with a Result", 1, { $0.then(addOneResult) }),
      ("then with a promise", 1, { $0.then(addOnePromise) }),
      ("then with an inline closure", 1, { $0.then { value in Promise { $0(.success(value + 1)) } } }),
      ("flatMap", 1, { $0.flatMap { Promise(value: $0 + 1) } }),
      ("attemptMap", 1, { $0.attemptMap { .success($0 + 1) } }),
      ("tap", 0, { $0.tap { _ in } }),
      ("validate", 0, { $0.validate({ _ in true }, else: .second) }),
      ("unwrap", 0, { $0.map { Optional($0) }.unwrap(orFail: .second) }),
      ("flatten", 0, { $0.map { Promise<Int, TestError>(value: $0) }.flatten() }),
    ]

  static func addOne(_ value: Int) -> Int { value + 1 }
  static func addOneResult(_ value: Int) -> Result<Int, TestError> { .success(value + 1) }
  static func addOnePromise(_ value: Int) -> Promise<Int, TestError> { Promise(value: value + 1) }

  /// Whether the last stage of `promise` stores no upstream.
  static func storesNoUpstream(_ promise: Promise<Int, TestError>) -> Bool {
    String(reflecting: type(of: promise._owner!)).contains("_StageUpstream")
  }

  /// Runs `promise` to its synchronous result.
  static func result(of promise: Promise<Int, TestError>) -> [Result<Int, TestError>] {
    let delivered = Recorder<Result<Int, TestError>>()
    promise.run { delivered.append($0) }
    return delivered.all
  }

  @Test(
    "an operator built on each kind of promise stores its upstream by that kind and delivers once",
    arguments: Base.allCases)
  func representationAndResult(base: Base) {
    for (name, adds, build) in Self.operators {
      let promise = build(base.promise)
      // `unwrap` and `flatten` are built on a `map` of the base: always a stage.
      let onStage = base.isStage || name == "unwrap" || name == "flatten"
      #expect(Self.storesNoUpstream(promise) == onStage, "\(name)")
      let expected: Result<Int, TestError> = base.fails ? .failure(.first) : .success(1 + adds)
      #expect(Self.result(of: promise) == [expected], "\(name)")
      // The same operator ending a fused segment of three value stages.
      let segment = build(base.promise.map { $0 + 10 }.map { $0 + 100 })
      #expect(Self.storesNoUpstream(segment), "\(name)")
      #expect(Self.result(of: segment) == [expected.map { $0 + 110 }], "\(name), fused")
    }
  }

  @Test("a chain built on a waiting stage delivers when its task completes, and not at all once cancelled")
  func waitingStage() {
    let task = ManualTask<Int, TestError>()
    let chain = task.promise.map { $0 + 1 }.then(Self.addOne).then(Self.addOnePromise).map { $0 * 2 }
    #expect(Self.storesNoUpstream(chain))
    let delivered = Recorder<Result<Int, TestError>>()
    chain.run { delivered.append($0) }
    #expect(task.starts.current == 1 && delivered.all.isEmpty)
    task.succeed(1)
    #expect(delivered.all == [.success(8)])
    let cancelled = chain.run { delivered.append($0) }
    #expect(task.starts.current == 2)
    cancelled.cancel()
    task.succeed(1)
    #expect(delivered.all == [.success(8)])
    #expect(task.cancels.current == 1)
  }
}
