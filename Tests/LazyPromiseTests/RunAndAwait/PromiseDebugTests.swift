import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise+Debug.swift`: `debug(_:printer:)` writes a promise's runs and a future's state, one line per event.
@Suite("Debug — one line per run event, through a printer")
struct PromiseDebugTests {
  @Test("nothing is written until the promise runs; then one line when it starts and one with its value")
  func runWritesStartAndValue() {
    let lines = Recorder<String>()
    let promise = Promise<Int, TestError>(value: 20).debug("answer", printer: lines.append).map { $0 + 1 }
    #expect(lines.all.isEmpty)
    promise.run { _ in }
    #expect(lines.all == ["answer: started", "answer: succeeded: 20"])
    promise.run { _ in }
    #expect(lines.all.count == 4, "each run is written")
  }

  @Test("a failure is written with its error and passed on unchanged")
  func failureIsWrittenAndPassedOn() {
    let lines = Recorder<String>()
    let outcome = Outcome(Promise<Int, TestError>(error: .code(4)).debug("lookup", printer: lines.append))
    #expect(lines.all == ["lookup: started", "lookup: failed: code(4)"])
    #expect(outcome.result == .failure(.code(4)))
  }

  @Test("cancelling a waiting run writes cancelled, cancels the work, and writes no outcome")
  func cancelIsWritten() {
    let work = ManualTask<Int, TestError>()
    let lines = Recorder<String>()
    let handle = work.promise.debug("lookup", printer: lines.append).run { _ in }
    handle.cancel()
    work.succeed(1)
    #expect(lines.all == ["lookup: started", "lookup: cancelled"])
    #expect(work.cancels.current == 1)
    work.forget()
  }

  @Test("debug after a failure writes the failure; inside a stage the failure skips, it writes nothing")
  func skippedRunIsNotWritten() {
    let lines = Recorder<String>()
    Promise<Int, TestError>(error: .first).map { $0 + 1 }.debug("late", printer: lines.append).run { _ in }
    #expect(lines.all == ["late: started", "late: failed: first"])
    Promise<Int, TestError>(error: .first).then { Promise(value: $0).debug("inner", printer: lines.append) }.run { _ in
    }
    #expect(lines.all.count == 2, "the inner promise never ran")
  }

  @Test("a future writes pending now and its value when it completes")
  func futureWritesItsState() {
    let lines = Recorder<String>()
    let (future, resolver) = Future<String, TestError>.makePending()
    let debugged = future.debug("artist", printer: lines.append)
    #expect(lines.all == ["artist: pending"])
    resolver.resolve("Queen")
    #expect(lines.all == ["artist: pending", "artist: succeeded: Queen"])
    #expect(debugged.result == .success("Queen"))
  }

  @Test("a completed future writes its result at once, and a cancelled one writes cancelled")
  func futureWritesCompletionAndCancel() {
    let lines = Recorder<String>()
    _ = Future<Int, TestError>(error: .second).debug("done", printer: lines.append)
    #expect(lines.all == ["done: failed: second"])
    let (future, _) = Future<Int, CancellationError>.makePending()
    _ = future.debug("stopped", printer: lines.append)
    future.cancel()
    #expect(lines.all.suffix(2) == ["stopped: pending", "stopped: cancelled"])
  }
}
