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
      let handle = get(server.baseURL).run { _ in handlerCalls.increment() }
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
        let promise = get(server.baseURL, "stall")
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
