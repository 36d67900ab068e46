import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract clause 2: order and threads.
@Suite("Contract 2 — order and threads")
struct ContractOrderTests {
  @Test("2.1 stages run in order, each after its predecessor delivered")
  func stagesRunInOrder() async {
    let log = Recorder<String>()
    let promise = later(1)
      .then { value -> Int in
        log.append("map \(value)")
        return value + 1
      }
      .then { value -> Result<Int, TestError> in
        log.append("result \(value)")
        return .success(value + 1)
      }
      .then { value -> Promise<Int, TestError> in
        log.append("promise \(value)")
        return later(value + 1)
      }
      .then { value -> Int in
        log.append("last \(value)")
        return value
      }
    let outcome = await promise.result
    #expect(outcome == .success(4))
    #expect(log.all == ["map 1", "result 2", "promise 3", "last 4"])
  }

  @Test("2.2 a stage runs on the thread that delivered its input")
  func stageRunsOnTheDeliveringThread() async {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "delivering")
    queue.setSpecific(key: key, value: "delivering")
    let seen = Recorder<String?>()
    let promise = Promise<Int, TestError> { completion in
      queue.async { completion(.success(1)) }
    }.map { value -> Int in
      seen.append(DispatchQueue.getSpecific(key: key))
      return value
    }
    let outcome = await withCheckedContinuation { continuation in
      promise.run { result in
        seen.append(DispatchQueue.getSpecific(key: key))
        continuation.resume(returning: result)
      }
    }
    #expect(outcome == .success(1))
    #expect(seen.all == ["delivering", "delivering"])
  }

  @Test("2.3 a synchronous chain delivers before run returns: no hidden dispatch")
  func synchronousChainDeliversBeforeRunReturns() {
    let results = Recorder<Int>()
    let handle = Promise<Int, Never>(value: 1).map { $0 + 1 }.then { Promise(value: $0 * 3) }
      .run(some: { results.append($0) })
    #expect(results.all == [6])
    #expect(handle.isDelivered)
  }
}
