import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19.7 (value side) and 19.8: eager stages and stack safety.
@Suite("Future then — contract 19.7, 19.8", .serialized)
struct FutureThenTests {
  static let stages = 1_000_000
  static let smallStack = 512 * 1024

  @Test("19.7 each then overload transforms the value once the future completes")
  func thenOverloadsTransformTheValue() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let mapped = future.then { $0 + 1 }
    let resulted = future.then { value -> Result<String, TestError> in .success("\(value)") }
    let flattened = future.then { value in Future<Int, TestError>(value: value * 10) }
    let viaMap = future.map { $0 * 2 }
    let viaFlatMap = future.flatMap { value in Future<Int, TestError>(value: value - 1) }
    let viaAttemptMap = future.attemptMap { $0 > 0 ? .success($0 * 3) : .failure(.first) }
    #expect(mapped.result == nil)
    resolver.resolve(4)
    #expect(mapped.result == .success(5))
    #expect(resulted.result == .success("4"))
    #expect(flattened.result == .success(40))
    #expect(viaMap.result == .success(8))
    #expect(viaFlatMap.result == .success(3))
    #expect(viaAttemptMap.result == .success(12))
  }

  @Test("19.7 then picks the overload for each closure shape: function references, one-line and multi-line closures")
  func thenAcceptsEachClosureShape() {
    @Sendable func double(_ value: Int) -> Int { value * 2 }
    @Sendable func parse(_ value: Int) -> Result<String, TestError> {
      value > 0 ? .success("\(value)") : .failure(.first)
    }
    @Sendable func later(_ value: Int) -> Future<Int, TestError> { Future(value: value + 1) }
    let start = Future<Int, TestError>(value: 2)

    let references: [Result<String, TestError>?] = [
      start.then(double).then(parse).result, start.then(later).then(parse).result,
    ]
    #expect(references == [.success("4"), .success("3")])

    let oneLine = start.then { $0 + 1 }.then { .success($0 * 10) }.then { Future(value: $0 - 1) }
    #expect(oneLine.result == .success(29))

    let multiLine =
      start
      .then { value in
        let next = value + 1
        return next
      }
      .then { value -> Result<Int, TestError> in
        guard value > 0 else { return .failure(.first) }
        return .success(value * 10)
      }
      .then { value -> Future<String, TestError> in
        let text = "\(value)"
        return Future(value: text)
      }
    #expect(multiLine.result == .success("30"))
    #expect(start.then(\.description).result == .success("2"))
  }

  @Test("19.7 stages on a completed future run at once, on the calling thread")
  func stagesOnCompletedFutureRunAtOnce() {
    let ran = Counter()
    let future = Future<Int, TestError>(value: 1)
    let next = future.map { value -> Int in
      ran.increment()
      return value + 1
    }
    #expect(ran.current == 1)
    #expect(next.result == .success(2))
    #expect(future.flatMap { Future<Int, TestError>(value: $0 + 5) }.result == .success(6))
  }

  @Test("19.7 a stage runs once, whether its future is observed by none or by many")
  func stageRunsOnceWhateverTheObservers() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let unobservedRuns = Counter()
    let observedRuns = Counter()
    _ = future.map { _ in unobservedRuns.increment() }
    let observed = future.map { value -> Int in
      observedRuns.increment()
      return value
    }
    observed.observe { _ in }
    observed.observe { _ in }
    resolver.resolve(1)
    observed.observe { _ in }
    #expect(unobservedRuns.current == 1)
    #expect(observedRuns.current == 1)
  }

  @Test("19.7 a failure skips the value stages and arrives typed")
  func failureSkipsValueStages() {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let ran = Counter()
    let chain =
      future
      .map { value -> Int in
        ran.increment()
        return value
      }
      .then { value -> Result<Int, TestError> in
        ran.increment()
        return .success(value)
      }
      .flatMap { value -> Future<Int, TestError> in
        ran.increment()
        return Future(value: value)
      }
    resolver.reject(.second)
    #expect(chain.result == .failure(.second))
    #expect(ran.current == 0)
  }

  @Test("19.7 a failing Result stage fails the rest of the chain")
  func failingResultStageFailsTheRest() {
    let future = Future<Int, TestError>(value: 1)
      .then { _ -> Result<Int, TestError> in .failure(.code(7)) }
      .map { $0 + 1 }
    #expect(future.result == .failure(.code(7)))
  }

  @Test("19.7 flatMap completes with the inner future's result when it arrives")
  func flatMapWaitsForTheInnerFuture() {
    let (outer, outerResolver) = Future<Int, TestError>.makePending()
    let (inner, innerResolver) = Future<String, TestError>.makePending()
    let chain = outer.flatMap { _ in inner }.map { $0.uppercased() }
    outerResolver.resolve(1)
    #expect(chain.result == nil)
    innerResolver.resolve("late")
    #expect(chain.result == .success("LATE"))
  }

  @Test("19.7 flatMap passes on the inner future's failure")
  func flatMapPassesTheInnerFailure() {
    let (outer, outerResolver) = Future<Int, TestError>.makePending()
    let chain = outer.flatMap { _ in Future<Int, TestError>(error: .first) }.map { $0 + 1 }
    outerResolver.resolve(1)
    #expect(chain.result == .failure(.first))
  }

  @Test("19.7 stages run on the thread that completes their input")
  func stagesRunOnTheCompletingThread() async {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "completing")
    queue.setSpecific(key: key, value: "completing")
    let (future, resolver) = Future<Int, TestError>.makePending()
    let seen = Recorder<String?>()
    let chain = future.map { value -> Int in
      seen.append(DispatchQueue.getSpecific(key: key))
      return value
    }
    queue.async { resolver.resolve(1) }
    #expect(await value(of: chain) == .success(1))
    #expect(seen.all == ["completing"])
  }

  static func pendingChain(_ stages: Int) -> (Future<Int, TestError>.Resolver, Future<Int, TestError>) {
    let (root, resolver) = Future<Int, TestError>.makePending()
    var future = root
    for _ in 0..<stages { future = future.map { $0 + 1 } }
    return (resolver, future)
  }

  static func resolveLongChain() -> Result<Int, TestError>? {
    let (resolver, last) = pendingChain(stages)
    resolver.resolve(0)
    return last.result
  }

  @Test("19.8 resolving the root of a 1,000,000-stage pending chain delivers, on the main thread")
  @MainActor
  func millionStageChainResolvesOnMainThread() {
    #expect(Self.resolveLongChain() == .success(Self.stages))
  }

  @Test("19.8 resolving the root of a 1,000,000-stage pending chain delivers, on a 512 KiB thread")
  func millionStageChainResolvesOnSmallStack() async {
    let delivered = Recorder<Result<Int, TestError>?>()
    await onThread(stackSize: Self.smallStack) {
      delivered.append(Self.resolveLongChain())
    }
    #expect(delivered.all == [.success(Self.stages)])
  }

  @Test("19.8 a 1,000,000-stage chain of flatMaps and error stages resolves, on a 512 KiB thread")
  func millionStageMixedChainResolvesOnSmallStack() async {
    let delivered = Recorder<Result<Int, TestError>?>()
    await onThread(stackSize: Self.smallStack) {
      let (root, resolver) = Future<Int, TestError>.makePending()
      var future = root
      for stage in 0..<Self.stages {
        switch stage % 4 {
        case 0: future = future.flatMap { Future(value: $0 + 1) }
        case 1: future = future.mapError { $0 }.map { $0 + 1 }
        case 2: future = future.ensure {}
        default: future = future.then { value -> Result<Int, TestError> in .success(value + 1) }
        }
      }
      resolver.resolve(0)
      delivered.append(future.result)
    }
    #expect(delivered.all == [.success(Self.stages / 4 * 3)])
  }

  @Test("19.8 a 1,000,000-stage pending chain is dropped unresolved, on a 512 KiB thread")
  func millionStageChainDropsOnSmallStack() async {
    let finished = Counter()
    await onThread(stackSize: Self.smallStack) {
      var chain: (Future<Int, TestError>.Resolver, Future<Int, TestError>)? = Self.pendingChain(Self.stages)
      chain = nil
      if chain == nil { finished.increment() }
    }
    #expect(finished.current == 1)
  }

  static func countDown(_ n: Int) -> Future<Int, TestError> {
    Future(value: n).then { n in n == 0 ? Future(value: 0) : countDown(n - 1) }
  }

  @Test("19.8 a recursive loop of 1,000,000 iterations over completed futures completes, on a 512 KiB thread")
  func millionIterationLoopOnSmallStack() async {
    let delivered = Recorder<Result<Int, TestError>?>()
    await onThread(stackSize: Self.smallStack) {
      delivered.append(Self.countDown(Self.stages).result)
    }
    #expect(delivered.all == [.success(0)])
  }

  @Test("19.8 observers that resolve the next future, 100,000 deep, stay stack-safe on a 512 KiB thread")
  func nestedResolversStaySafeOnSmallStack() async {
    let delivered = Recorder<Result<Int, TestError>?>()
    await onThread(stackSize: Self.smallStack) {
      let depth = 100_000
      let pairs = (0...depth).map { _ in Future<Int, TestError>.makePending() }
      for index in 0..<depth {
        let next = pairs[index + 1].resolver
        pairs[index].future.observe { result in next.complete(result.map { $0 + 1 }) }
      }
      pairs[0].resolver.resolve(0)
      delivered.append(pairs[depth].future.result)
    }
    #expect(delivered.all == [.success(100_000)])
  }
}
