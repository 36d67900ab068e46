import Dispatch
import Foundation
import LazyPromise
import LazyPromiseFoundation
import LazyPromiseTestSupport
import LoopbackHTTPServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Contract clause 29 (Docs/Contract.md): cancelling a run cancels its request.
@Suite("Contract 29 — cancelling a URLSession promise")
struct ContractFoundationCancellationTests {
  @Test("29.1 cancelling a run mid-flight cancels its request and calls no handler", .timeLimit(.minutes(1)))
  func cancellingMidFlightCancelsTheRequest() async throws {
    let handlerCalls = Counter()
    try await LoopbackHTTPServer.serving({ _ in .stall }) { server in
      var events = server.events.makeAsyncIterator()
      // A timeout far beyond the cancel: a slow machine must not answer the stalled request first.
      let handle = get(server.baseURL, timeout: 30).run { _ in handlerCalls.increment() }
      _ = await events.nextRequest()
      handle.cancel()
      #expect(await events.nextClose())
      #expect(handle.isCancelled)
    }
    #expect(handlerCalls.current == 0)
  }

  @Test(
    "29.2 100 mid-flight cancellations on one session neither deadlock nor break the session",
    .timeLimit(.minutes(1)))
  func repeatedCancellationDoesNotDeadlock() async throws {
    let handlerCalls = Counter()
    try await LoopbackHTTPServer.serving({ request in
      request.target == "/ok" ? .respond(status: 200, "ok") : .stall
    }) { server in
      var events = server.events.makeAsyncIterator()
      for round in 0..<100 {
        let promise = get(server.baseURL, "stall", timeout: 30)
        switch round % 3 {
        case 0:
          let handle = promise.run { _ in handlerCalls.increment() }
          _ = await events.nextRequest()
          handle.cancel()
        case 1:
          // From the session's own delegate queue, where the data task's callbacks run.
          let handle = promise.run { _ in handlerCalls.increment() }
          _ = await events.nextRequest()
          testSession.delegateQueue.addOperation { handle.cancel() }
        default:
          // From a Swift task's cancellation handler, which holds the task's status lock: the shape
          // of swift-corelibs-foundation #5412.
          let task = Task { await cancellableResult(of: promise) }
          _ = await events.nextRequest()
          task.cancel()
          #expect(await task.value == nil)
        }
        #expect(await events.nextClose(), "round \(round): the request was not cancelled")
      }
      #expect(await get(server.baseURL, "ok").result == .success(Data("ok".utf8)))
    }
    #expect(handlerCalls.current == 0)
  }
}

/// Contract clauses 29.3 and 29.4: a run cancelled around its answer never traps, on a session
/// without a URL cache and on one with a cache. A run cancelled after its answer was delivered has
/// called its handler, once; one cancelled before calls none.
@Suite("Contract 29 — cancelling a URLSession promise as it answers")
struct ContractFoundationCancelAsItAnswersTests {
  @Test(
    "29.3 1,000 runs cancelled as their answers arrive never trap, and each calls its handler at most once",
    .timeLimit(.minutes(2)))
  func cancellingAsTheAnswerArrivesIsSafe() async throws {
    // A session of its own, so that its thousand requests queue behind no other test's.
    try await cancelRunsAsTheyAnswer(on: URLSession(configuration: .withoutCache), rounds: 1_000)
  }

  @Test(
    "29.4 on a session with a URL cache, 1,000 runs cancelled as they start never trap, and each calls its handler at most once",
    .timeLimit(.minutes(2)))
  func cancellingOnASessionWithACacheIsSafe() async throws {
    // Ephemeral configurations have an in-memory URL cache; a unique URL a round makes every run
    // consult it.
    try await cancelRunsAsTheyAnswer(on: URLSession(configuration: .ephemeral), rounds: 1_000, uniqueURLs: true)
  }

  /// Runs `rounds` requests that the server answers at once, cancelling each from the session's
  /// delegate queue (where the answer is delivered) or from another thread, at moments spread over
  /// the answer's arrival; then checks the session still answers. The rounds are paced on a thread
  /// of their own: sleeping in the test's task would hold one of the few threads Swift concurrency
  /// runs every other test on.
  private func cancelRunsAsTheyAnswer(on session: URLSession, rounds: Int, uniqueURLs: Bool = false) async throws {
    let handlerCalls = (0..<rounds).map { _ in Counter() }
    try await LoopbackHTTPServer.serving({ _ in .respond(status: 200, "ok") }) { server in
      let baseURL = server.baseURL
      await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
          for round in 0..<rounds {
            let path = uniqueURLs ? "ok/\(round)" : "ok"
            let handle = session.dataPromise(from: baseURL.appending(path: path), timeout: 5)
              .run { _ in handlerCalls[round].increment() }
            let delay = UInt32(round % 40) * 25
            if round.isMultiple(of: 2) {
              session.delegateQueue.addOperation { handle.cancel() }
            } else {
              DispatchQueue.global().async {
                usleep(delay)
                handle.cancel()
              }
            }
            usleep(delay)
          }
          finished.resume()
        }
      }
      #expect(
        await session.dataPromise(from: baseURL.appending(path: "ok"), timeout: 5).result == .success(Data("ok".utf8)))
    }
    #expect(handlerCalls.allSatisfy { $0.current <= 1 })
  }
}
