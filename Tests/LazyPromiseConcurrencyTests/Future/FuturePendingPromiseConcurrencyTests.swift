import Dispatch
import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Completing a pending future while its promise's runs are cancelled on another thread.
@Suite("Future.promise — completion and cancel racing")
struct FuturePendingPromiseConcurrencyTests {
  @Test("20.2, 20.4 completion racing cancel: each run delivers once or not at all, and every handler is released")
  func completeRacesCancel() {
    let live = Counter()
    let deliveries = Counter()
    let wrongDeliveries = Counter()
    for round in 0..<500 {
      let (future, resolver) = Future<Int, TestError>.makePending()
      let promise = future.promise
      let handles = (0..<4).map { _ in
        let token = LiveToken(live: live, peak: Counter())
        let delivered = Counter()
        let handle = promise.run { result in
          withExtendedLifetime(token) {
            if delivered.increment() > 1 || result != .success(round) { _ = wrongDeliveries.increment() }
            _ = deliveries.increment()
          }
        }
        return (handle, delivered)
      }
      let group = DispatchGroup()
      let skew = Int.random(in: -300...300)
      group.enter()
      group.enter()
      race(
        skew: skew,
        {
          resolver.resolve(round); group.leave()
        },
        {
          for (handle, _) in handles where Bool.random() { handle.cancel() }
          group.leave()
        })
      group.wait()
      for (handle, delivered) in handles {
        #expect(handle.isDelivered != handle.isCancelled)
        #expect(delivered.current == (handle.isDelivered ? 1 : 0))
      }
    }
    #expect(wrongDeliveries.current == 0)
    #expect(live.current == 0, "delivered and cancelled runs let go of their handlers")
    #expect(deliveries.current > 0)
  }
}
