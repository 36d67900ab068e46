import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 19.10–19.12: cancelling a `Future`.
@Suite("Future cancel — contract 19.10–19.12")
struct FutureCancelTests {
  init() { DiagnosticsCollector.install() }

  @Test("19.10 cancelling a pending future fails every observer with .cancelled, exactly once")
  func cancellingFailsEveryObserverOnce() async {
    let (future, _) = Future<Int, LookupError>.makePending()
    await confirmation(expectedCount: 2) { observed in
      future.observe {
        #expect($0 == .failure(.cancelled))
        observed()
      }
      #expect(!future.isCancelled)
      future.cancel()
      #expect(future.isCancelled)
      #expect(future.result == .failure(.cancelled))
      future.observe {
        #expect($0 == .failure(.cancelled), "an observer registered after the cancel gets it at once")
        observed()
      }
    }
  }

  @Test("19.10 cancelling the future of start() cancels its run: the task's cancel handler runs once")
  func cancellingAStartedFutureCancelsItsRun() {
    let task = ManualTask<Int, LookupError>()
    let future = task.promise.map { $0 + 1 }.start()
    #expect(task.starts.current == 1)
    future.cancel()
    #expect(task.cancels.current == 1)
    #expect(future.result == .failure(.cancelled))
    task.complete(.success(1))  // late: the run was cancelled, so it is dropped
    #expect(future.result == .failure(.cancelled))
    #expect(task.cancels.current == 1)
  }

  @Test("19.10 a task's cancel handlers run once, in order, on cancel; a late completion is not reported")
  func cancellableTaskHandlersRunOnce() {
    let order = Recorder<Int>()
    let completions = Recorder<Future<Int, LookupError>.Completion>()
    let line = #line + 1
    let future = Future<Int, LookupError> { completion, onCancel in
      completions.append(completion)
      onCancel { order.append(1) }
      onCancel { order.append(2) }
    }
    future.cancel()
    future.cancel()
    #expect(order.all == [1, 2])
    completions.all.first?(.success(3))
    #expect(future.result == .failure(.cancelled))
    #if DEBUG
      #expect(DiagnosticsCollector.reports(at: "\(#fileID):\(line)").isEmpty)
    #endif
  }

  @Test("19.10 the work stops first, then the observers run, on the cancelling thread before cancel returns")
  func workStopsBeforeObserversRun() {
    let order = Recorder<String>()
    let (future, resolver) = Future<Int, LookupError>.makePending()
    resolver.onCancel { order.append("handler") }
    future.observe { _ in order.append("observer") }
    future.cancel()
    #expect(order.all == ["handler", "observer"])
  }

  @Test("19.10 runs of future.promise waiting for a cancelled future receive .cancelled")
  func viewRunsReceiveTheCancel() {
    let (future, _) = Future<Int, LookupError>.makePending()
    let waiting = Outcome(future.promise.map { $0 + 1 })
    future.cancel()
    #expect(waiting.result == .failure(.cancelled))
    #expect(Outcome(future.promise).result == .failure(.cancelled))
  }

  @Test("19.10 a resolver's handler registered after the cancel runs at once")
  func handlerAfterCancelRunsAtOnce() {
    let (future, resolver) = Future<Int, LookupError>.makePending()
    future.cancel()
    let runs = Counter()
    resolver.onCancel { runs.increment() }
    #expect(runs.current == 1)
  }

  @Test("19.10 a future failing with any Error is cancelled with a CancellationError")
  func anyErrorFutureIsCancelledWithCancellationError() {
    let (future, _) = Future<Int, any Error>.makePending()
    future.cancel()
    guard case .failure(let error)? = future.result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error is CancellationError)
  }

  @Test("19.10 awaiting a cancelled future throws .cancelled")
  func awaitingACancelledFutureThrows() async {
    let (future, _) = Future<Int, LookupError>.makePending()
    future.cancel()
    await #expect(throws: LookupError.cancelled) { try await future.value }
  }

  @Test("19.11 cancelling a completed future does nothing; its cancel handlers never run")
  func cancellingACompletedFutureDoesNothing() {
    let runs = Counter()
    let future = Future<Int, LookupError> { completion, onCancel in
      onCancel { runs.increment() }
      completion(.success(4))
    }
    future.cancel()
    #expect(future.result == .success(4))
    #expect(!future.isCancelled)
    #expect(runs.current == 0)

    let (pending, resolver) = Future<Int, LookupError>.makePending()
    resolver.resolve(5)
    resolver.onCancel { runs.increment() }
    pending.cancel()
    #expect(pending.result == .success(5))
    #expect(runs.current == 0, "a handler registered after the completion never runs")

    let started = Promise<Int, LookupError>(value: 6).start()
    started.cancel()
    #expect(started.result == .success(6))
  }

  @Test("19.11 cancelling twice delivers once and stops the work once")
  func cancellingTwiceIsANoOp() async {
    let task = ManualTask<Int, LookupError>()
    let future = task.promise.start()
    await confirmation(expectedCount: 1) { observed in
      future.observe { _ in observed() }
      future.cancel()
      future.cancel()
    }
    #expect(task.cancels.current == 1)
  }

  @Test("19.12 futures chained from a cancelled future receive .cancelled as a failure")
  func derivedFuturesReceiveTheFailure() {
    let (root, _) = Future<Int, LookupError>.makePending()
    let mapped = root.map { $0 + 1 }
    let thenned = root.then { Future<Int, LookupError>(value: $0) }
    let mappedError = root.mapError { _ in TestError.first }
    let recovered = root.recover { $0 == .cancelled ? -1 : 0 }
    root.cancel()
    #expect(mapped.result == .failure(.cancelled))
    #expect(thenned.result == .failure(.cancelled))
    #expect(mappedError.result == .failure(.first))
    #expect(recovered.result == .success(-1))
    #expect(!mapped.isCancelled, "only the future that was cancelled reads cancelled")
    #expect(root.map { $0 }.result == .failure(.cancelled), "a stage chained afterwards too")
  }

  @Test("19.12 cancelling a chained future completes only it: its function never runs, its source goes on")
  func cancellingADerivedFutureLeavesItsSource() {
    let (root, resolver) = Future<Int, LookupError>.makePending()
    let calls = Counter()
    let derived = root.map { value -> Int in
      calls.increment()
      return value + 1
    }
    let tapped = root.tap { _ in calls.increment() }
    // Operators that `Future` forwards to `Promise` (record 0006): the cancel reaches their run, not the root.
    let always = root.always { _ in calls.increment() }
    let folded = root.fold([1]) { partial, element in
      calls.increment()
      return Future(value: partial + element)
    }
    for future in [derived, tapped, always, folded] { future.cancel() }
    resolver.resolve(1)
    #expect(calls.current == 0)
    for future in [derived, tapped, always, folded] { #expect(future.result == .failure(.cancelled)) }
    #expect(root.result == .success(1))
    #expect(!root.isCancelled)
  }

  @Test("19.12 cancelling the root of a 1,000,000-stage pending chain reaches its end, on a 512 KiB thread")
  func cancellingALongChainIsStackSafe() async {
    let reached = Counter()
    await onThread(stackSize: 512 * 1024) {
      let (root, _) = Future<Int, LookupError>.makePending()
      var future = root
      for _ in 0..<1_000_000 { future = future.map { $0 + 1 } }
      root.cancel()
      if future.result == .failure(.cancelled) { reached.increment() }
    }
    #expect(reached.current == 1)
  }
}
