import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

@Suite("Contract 7 — cancelling a run")
struct RunHandleTests {
  @Test("7.1 cancelling before the task completes: no handler is called and no further stage starts")
  func cancelBeforeCompletionCallsNothing() {
    let stageCalls = Counter()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let promise = Promise<Int, TestError> { completion in pending.append(completion) }
      .map { value -> Int in
        stageCalls.increment()
        return value
      }
    let handle = promise.run { _ in Issue.record("a cancelled run must not deliver") }
    handle.cancel()
    pending.all.first?(.success(1))
    #expect(stageCalls.current == 0)
    #expect(handle.isCancelled)
    #expect(!handle.isDelivered)
  }

  @Test("7.2 cancelling runs the pending task's cancel handlers once, in registration order")
  func cancelRunsHandlersOnceInOrder() {
    let log = Recorder<String>()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let promise = Promise<Int, TestError> { completion, onCancel in
      pending.append(completion)  // kept, as a real task keeps it until its work ends
      onCancel { log.append("first") }
      onCancel { log.append("second") }
    }
    let handle = promise.run { _ in Issue.record("a cancelled run must not deliver") }
    handle.cancel()
    handle.cancel()
    #expect(log.all == ["first", "second"])
  }

  @Test("7.2 a handler registered after cancelling runs at once")
  func handlerRegisteredAfterCancelRunsAtOnce() {
    let log = Recorder<String>()
    let onCancelBox = Recorder<Promise<Int, TestError>.OnCancel>()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let handle = Promise<Int, TestError> { completion, onCancel in
      pending.append(completion)
      onCancelBox.append(onCancel)
    }.run { _ in }
    handle.cancel()
    onCancelBox.all.first? { log.append("late") }
    #expect(log.all == ["late"])
  }

  @Test("7.3 cancelling after delivery does nothing, and handlers of completed tasks never run")
  func cancelAfterDeliveryDoesNothing() {
    let log = Recorder<String>()
    let promise = Promise<Int, TestError> { completion, onCancel in
      onCancel { log.append("cancelled") }
      completion(.success(1))
    }
    let results = Recorder<Int>()
    let handle = promise.run(some: { results.append($0) }, none: { _ in })
    handle.cancel()
    #expect(results.all == [1])
    #expect(handle.isDelivered)
    #expect(!handle.isCancelled)
    #expect(log.all.isEmpty)
  }

  @Test("7.1 cancelling between stages stops the chain before the next task starts")
  func cancelBetweenStagesStopsTheChain() {
    let secondTaskStarts = Counter()
    let handleBox = Recorder<RunHandle>()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let promise = Promise<Int, TestError> { completion in pending.append(completion) }
      .then { value in
        Promise<Int, TestError> { completion in
          secondTaskStarts.increment()
          completion(.success(value))
        }
      }
    let handle = promise.run { _ in Issue.record("a cancelled run must not deliver") }
    handleBox.append(handle)
    handle.cancel()
    pending.all.first?(.success(1))
    #expect(secondTaskStarts.current == 0)
  }

  @Test("7.3 cancel called from many threads at once cancels once and runs each cancel handler once")
  func concurrentCancelsCancelOnce() {
    let pending = ManualTask<Int, TestError>()
    let handle = pending.promise.run { _ in Issue.record("a cancelled run must not deliver") }
    #expect(pending.starts.current == 1)
    DispatchQueue.concurrentPerform(iterations: 16) { _ in handle.cancel() }
    #expect(pending.cancels.current == 1)
    #expect(handle.isCancelled)
  }

  @Test("7.1 cancelling from inside a stage stops the chain after that stage")
  func cancelFromInsideAStageStopsTheChain() {
    let handleBox = Recorder<RunHandle>()
    let pending = Recorder<Promise<Int, TestError>.Completion>()
    let laterStages = Counter()
    let promise = Promise<Int, TestError> { completion in pending.append(completion) }
      .map { value -> Int in
        handleBox.all.first?.cancel()
        return value
      }
      .map { value -> Int in
        laterStages.increment()
        return value
      }
    handleBox.append(promise.run { _ in Issue.record("a cancelled run must not deliver") })
    pending.all.first?(.success(1))
    #expect(laterStages.current == 0)
    #expect(handleBox.all.first?.isCancelled == true)
  }
}
