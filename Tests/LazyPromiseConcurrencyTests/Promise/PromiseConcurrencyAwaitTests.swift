import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Synchronization
import Testing

/// Contract clause 9: Swift concurrency. Run again under the thread sanitizer by CI (its test target).
@Suite("Promise concurrency — awaiting and async work, contract 9")
struct PromiseConcurrencyAwaitTests {
  // MARK: 9.1 awaiting

  @Test("9.1 await value runs the promise and returns its value")
  func awaitValueReturnsTheValue() async throws {
    let starts = Counter()
    let promise = Promise<Int, TestError> { completion in
      starts.increment()
      DispatchQueue.global().async { completion(.success(41)) }
    }.map { $0 + 1 }
    #expect(starts.current == 0)
    #expect(try await promise.value == 42)
    #expect(try await promise.value == 42)
    #expect(starts.current == 2, "each await is one run")
  }

  @Test("9.1 await value throws the promise's error with its own type")
  func awaitValueThrowsTheTypedError() async {
    let promise = later(1).then { _ -> Result<Int, TestError> in .failure(.code(7)) }
    do throws(TestError) {
      _ = try await promise.value
      Issue.record("expected a failure")
    } catch {
      let typed: TestError = error  // no cast: the error arrives as TestError
      #expect(typed == .code(7))
    }
  }

  @Test("9.1 await result gives the typed result")
  func awaitResultGivesTheResult() async {
    #expect(await later(3).result == .success(3))
    #expect(await Promise<Int, TestError>(error: .second).result == .failure(.second))
    #expect(await Promise<Int, LookupError>(error: .notFound).result == .failure(.notFound))
  }

  @Test("9.1 a promise that cannot fail is awaited without try")
  func neverPromiseIsAwaitedWithoutTry() async {
    let value: Int = await Promise<[Int], Never>(value: [1, 2, 3]).then(\.count).value
    #expect(value == 3)
  }

  // MARK: 9.2 error types that can say "cancelled"

  @Test("9.2 cancelling the awaiting task cancels the run and ends the await at once with .cancelled")
  func cancellationEndsTheAwaitAtOnce() async {
    let task = ManualTask<Int, LookupError>()
    let stages = Counter()
    let promise = task.promise.map { value -> Int in
      stages.increment()
      return value
    }
    let awaiting = Task { await promise.result }
    await task.started.wait()
    awaiting.cancel()
    #expect(await awaiting.value == .failure(.cancelled))
    #expect(task.cancels.current == 1)
    task.complete(.success(1))  // too late: the run was cancelled
    #expect(stages.current == 0)
  }

  @Test("9.2 value throws E.cancelled")
  func valueThrowsCancelled() async {
    let task = ManualTask<Int, LookupError>()
    let awaiting = Task { () async throws(LookupError) -> Int in try await task.promise.value }
    await task.started.wait()
    awaiting.cancel()
    let outcome = await awaiting.result
    #expect(throws: LookupError.cancelled) { try outcome.get() }
  }

  @Test("9.2 an awaiting task cancelled before the await never starts the work")
  func alreadyCancelledTaskNeverStartsTheWork() async {
    let task = ManualTask<Int, LookupError>()
    let awaiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await task.promise.result
    }
    #expect(await awaiting.value == .failure(.cancelled))
    #expect(task.starts.current == 0)
  }

  @Test("9.2 Swift's CancellationError can say cancelled")
  func cancellationErrorCanSayCancelled() async {
    let task = ManualTask<Int, CancellationError>()
    let awaiting = Task { () async throws(CancellationError) -> Int in try await task.promise.value }
    await task.started.wait()
    awaiting.cancel()
    let outcome = await awaiting.result
    #expect(throws: CancellationError.self) { try outcome.get() }
    #expect(task.cancels.current == 1)
  }

  @Test("9.2 a promise failing with any Error ends the await with a CancellationError")
  func anyErrorEndsWithCancellationError() async {
    let task = ManualTask<Int, any Error>()
    let awaiting = Task { try await task.promise.value }
    await task.started.wait()
    awaiting.cancel()
    await #expect(throws: CancellationError.self) { try await awaiting.value }
    #expect(task.cancels.current == 1)
  }

  // MARK: 9.3 other error types: cooperative cancellation

  @Test("9.3 cancelling the awaiting task runs the cancel handlers and ends with what the work then delivers")
  func cooperativeCancellationEndsWithWhatTheWorkDelivers() async {
    let task = ManualTask<Int, TestError>(completingOnCancelWith: .failure(.code(-1)))
    let awaiting = Task { await task.promise.map { $0 + 1 }.result }
    await task.started.wait()
    awaiting.cancel()
    #expect(await awaiting.value == .failure(.code(-1)))
    #expect(task.cancels.current == 1)
  }

  @Test("9.3 work that ignores cooperative cancellation still delivers its value, and later stages run")
  func cooperativeCancellationDoesNotSuppressDelivery() async {
    let task = ManualTask<Int, TestError>()
    let awaiting = Task { await task.promise.map { $0 * 10 }.result }
    await task.started.wait()
    awaiting.cancel()
    await awaitingCancelHandler(task)
    task.complete(.success(4))
    #expect(await awaiting.value == .success(40))
  }

  @Test("9.3 an awaiting task cancelled before the await starts the work, whose cancel handler runs at once")
  func alreadyCancelledTaskInterruptsAtOnce() async {
    let task = ManualTask<Int, TestError>(completingOnCancelWith: .failure(.first))
    let later = ManualTask<Int, TestError>(completingOnCancelWith: .failure(.second))
    let awaiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await task.promise.flatMapError { _ in later.promise }.result
    }
    #expect(await awaiting.value == .failure(.second))
    #expect(task.cancels.current == 1)
    #expect(later.cancels.current == 1, "every later task of the run sees the cancellation too")
  }

  @Test("9.3 a promise that cannot fail, awaited in a cancelled task, ends its delay early with the value")
  func neverPromiseDelayEndsEarly() async {
    let clock = VirtualScheduler()
    let awaiting = Task { await Promise<Int, Never>(value: 5).delay(.seconds(3_600), on: clock).value }
    while clock.pendingCount == 0 { await Task.yield() }
    awaiting.cancel()
    #expect(await awaiting.value == 5)
    #expect(clock.pendingCount == 0)
    #expect(clock.now == .zero)
  }

  @Test("9.3 a timeout still bounds cooperative cancellation of work that ignores it")
  func timeoutStillBoundsCooperativeCancellation() async {
    let clock = VirtualScheduler()
    let task = ManualTask<Int, TestError>()
    let awaiting = Task { await task.promise.timeout(.seconds(5), on: clock, error: .code(408)).result }
    await task.started.wait()
    awaiting.cancel()
    await awaitingCancelHandler(task)
    #expect(clock.pendingCount == 1)
    clock.advance(by: .seconds(5))
    #expect(await awaiting.value == .failure(.code(408)))
  }

  @Test("9.3 cooperative cancellation during a retry's backoff ends with the last error at once")
  func cooperativeCancellationStopsRetrying() async {
    let clock = VirtualScheduler()
    let starts = Counter()
    let awaiting = Task {
      await Promise<Int, TestError> { completion in completion(.failure(.code(starts.increment()))) }
        .retry(5, backoff: .constant(.seconds(1)), on: clock)
        .result
    }
    while clock.pendingCount == 0 { await Task.yield() }
    awaiting.cancel()
    #expect(await awaiting.value == .failure(.code(1)))
    #expect(starts.current == 1)
    #expect(clock.pendingCount == 0)
  }

  @Test("9.3 zip and all pass cooperative cancellation on to their inputs and deliver what they then deliver")
  func combinatorsPassCooperativeCancellationOn() async {
    let first = ManualTask<Int, TestError>(completingOnCancelWith: .success(1))
    let second = ManualTask<Int, TestError>(completingOnCancelWith: .success(2))
    let zipped = Task { await zip(first.promise, second.promise).map { $0 + $1 }.result }
    await first.started.wait()
    await second.started.wait()
    zipped.cancel()
    #expect(await zipped.value == .success(3))

    let inputs = (0..<3).map { ManualTask<Int, TestError>(completingOnCancelWith: .success($0)) }
    let gathered = Task { await Promise.all(inputs.map(\.promise), maxConcurrent: 2).result }
    await inputs[0].started.wait()
    await inputs[1].started.wait()
    gathered.cancel()
    #expect(await gathered.value == .success([0, 1, 2]), "the input started after the cancel sees it at once")
    #expect(inputs.map(\.cancels.current) == [1, 1, 1])
  }

  @Test("9.2 a cancelled await of a race cancels every input")
  func cancelledRaceCancelsEveryInput() async {
    let inputs = (0..<3).map { _ in ManualTask<Int, LookupError>() }
    let racing = Task { await Promise.race(inputs.map(\.promise)).result }
    for input in inputs { await input.started.wait() }
    racing.cancel()
    #expect(await racing.value == .failure(.cancelled))
    #expect(inputs.map(\.cancels.current) == [1, 1, 1])
  }

  /// Waits until the task's cancel handler has run.
  func awaitingCancelHandler<T, E>(_ task: ManualTask<T, E>) async {
    while task.cancels.current == 0 { await Task.yield() }
  }

  // MARK: 9.4 exactly one resume

  static let maximumSkew = 4_000

  @Test("9.4 cancellation racing completion resumes every await exactly once", arguments: [false, true])
  func cancellationRacingCompletionResumesOnce(canSayCancelled: Bool) async {
    for iteration in 0..<1_000 {
      let skew = Int.random(in: -Self.maximumSkew...Self.maximumSkew)
      let delivered = await Self.raceOnce(canSayCancelled: canSayCancelled, skew: skew)
      #expect(delivered != nil, "iteration \(iteration) ended with something else")
    }
  }

  /// One await whose work completes on one thread while the awaiting task is cancelled on another; a positive
  /// `skew` holds the completion back, a negative one the cancellation. `true` when the value arrived, `false` when cancellation ended the await, `nil` for anything
  /// else.
  static func raceOnce(canSayCancelled: Bool, skew: Int) async -> Bool? {
    let awaiting = Locked<Task<Bool?, Never>?>(nil)
    /// Completes on one thread and cancels the awaiting task on another, at the same time give or take `skew`.
    /// Completes on one thread while another cancels the awaiting task.
    let race: @Sendable (_ complete: @escaping @Sendable () -> Void) -> Void = { complete in
      LazyPromiseTestSupport.race(skew: skew, complete) {
        while true {
          if let task = awaiting.withLock({ $0 }) { return task.cancel() }
        }
      }
    }
    let task: Task<Bool?, Never>
    if canSayCancelled {
      let promise = Promise<Int, LookupError> { completion in race { completion(.success(1)) } }
      task = Task {
        switch await promise.result {
        case .success(1): true
        case .failure(.cancelled): false
        default: nil
        }
      }
    } else {
      let promise = Promise<Int, TestError> { completion, onCancel in
        let once = Counter()
        onCancel { if once.increment() == 1 { completion(.failure(.first)) } }
        race { if once.increment() == 1 { completion(.success(1)) } }
      }
      task = Task {
        switch await promise.result {
        case .success(1): true
        case .failure(.first): false
        default: nil
        }
      }
    }
    awaiting.withLock { $0 = task }
    return await task.value
  }

  // MARK: 9.5 promises of async work

  @Test("9.5 a promise of async work starts a task only when it runs, one per run")
  func asyncWorkStartsOnRun() async throws {
    let starts = Counter()
    let promise = Promise<Int, TestError> { () async throws(TestError) -> Int in
      starts.increment()
      await Task.yield()
      return 20
    }
    #expect(starts.current == 0)
    #expect(try await promise.map { $0 + 1 }.value == 21)
    #expect(try await promise.value == 20)
    #expect(starts.current == 2)
  }

  @Test("9.5 the async initializer accepts a typed-throws closure, a function, and a closure that cannot fail")
  func asyncInitializerAcceptsTheUsualShapes() async {
    @Sendable func answer() async throws(TestError) -> Int { 42 }
    let fromClosure = Promise { () throws(TestError) in try await answer() }
    let fromFunction = Promise<Int, TestError>(operation: answer)
    let cannotFail = Promise<Int, Never> {
      await Task.yield()
      return 42
    }
    #expect(await fromClosure.result == .success(42))
    #expect(await fromFunction.result == .success(42))
    #expect(await cannotFail.value == 42)
  }

  @Test("9.5 a promise of async work fails with the operation's typed error")
  func asyncWorkFailsWithTheTypedError() async {
    let promise = Promise<Int, TestError> { () async throws(TestError) -> Int in throw .code(3) }
    let outcome = await withCheckedContinuation { continuation in
      promise.run { continuation.resume(returning: $0) }
    }
    #expect(outcome == .failure(.code(3)))
  }

  @Test("9.5 cancelling the run cancels the task, and what it returns then is ignored")
  func cancellingTheRunCancelsTheTask() async {
    let started = Signal()
    let finished = Signal()
    let sawCancellation = Recorder<Bool>()
    let promise = Promise<Int, Never> { () async -> Int in
      started.fire()
      for await _ in AsyncStream<Void>.makeStream().stream {}  // ends when the task is cancelled
      sawCancellation.append(Task.isCancelled)
      finished.fire()
      return 1
    }
    let handle = promise.run(some: { _ in Issue.record("a cancelled run must not deliver") })
    await started.wait()
    handle.cancel()
    await finished.wait()
    #expect(sawCancellation.all == [true])
    #expect(handle.isCancelled && !handle.isDelivered)
  }

  @Test("9.5 an awaited promise of async work passes task cancellation on to the operation")
  func awaitedAsyncWorkSeesCancellation() async {
    let started = Signal()
    let promise = Promise<Bool, TestError> { () async throws(TestError) -> Bool in
      started.fire()
      for await _ in AsyncStream<Void>.makeStream().stream {}  // ends when the task is cancelled
      return Task.isCancelled
    }
    let awaiting = Task { await promise.result }
    await started.wait()
    awaiting.cancel()
    #expect(await awaiting.value == .success(true), "cooperative: the operation's own answer is delivered")
  }
}
