import Dispatch
import LazyPromise

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a new thread with the given stack size and waits for it to finish.
///
/// ```swift
/// await onThread(stackSize: 512 * 1024) { promise.run { _ in } }  // a deep chain must not overflow this stack
/// ```
public func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    final class Context {
      let body: @Sendable () -> Void
      let done: CheckedContinuation<Void, Never>
      init(body: @escaping @Sendable () -> Void, done: CheckedContinuation<Void, Never>) {
        self.body = body
        self.done = done
      }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "cannot set a \(stackSize)-byte stack")
    let context = Unmanaged.passRetained(Context(body: body, done: continuation)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { raw in
        #if canImport(Darwin)
          let context = Unmanaged<Context>.fromOpaque(raw).takeRetainedValue()
        #else
          let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
        #endif
        context.body()
        context.done.resume()
        return nil
      }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    pthread_attr_destroy(&attributes)
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
  }
}

/// A promise that completes on a global queue, like a network callback.
///
/// ```swift
/// let answer = later(41).map { $0 + 1 }  // delivers 42 from another thread
/// ```
public func later<T: Sendable>(_ value: T) -> Promise<T, TestError> {
  Promise { completion in
    DispatchQueue.global().async { completion(.success(value)) }
  }
}

/// Runs `promise` `runs` times at once, from the threads of `DispatchQueue.concurrentPerform`, and waits until as
/// many results have been delivered; returns what each run delivered, in run order.
///
/// ```swift
/// let deliveries = await runConcurrently(later(1), runs: 1_000)
/// #expect(deliveries.allSatisfy { $0 == [.success(1)] })  // each run delivered exactly once
/// ```
public func runConcurrently<T: Sendable, E: Error>(_ promise: Promise<T, E>, runs: Int) async -> [[Result<T, E>]] {
  let perRun = (0..<runs).map { _ in Recorder<Result<T, E>>() }
  let total = Counter()
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.concurrentPerform(iterations: runs) { index in
      promise.run { result in
        perRun[index].append(result)
        if total.increment() == runs { done.resume() }
      }
    }
  }
  return perRun.map(\.all)
}
