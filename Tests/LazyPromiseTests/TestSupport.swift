import Dispatch
import LazyPromise
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The error the tests fail with.
enum TestError: Error, Equatable {
  case first
  case second
  case code(Int)
}

/// A thread-safe list of what a test observed.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
  var count: Int { values.withLock { $0.count } }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  @discardableResult
  func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
  func decrement() { value.subtract(1, ordering: .relaxed) }
  var current: Int { value.load(ordering: .relaxed) }
}

/// Collects the debug-build diagnostics of every test; each test looks only at the sites it made.
enum DiagnosticsCollector {
  private static let reports = Recorder<PromiseDiagnostic>()
  private static let installed: Bool = {
    PromiseDiagnostics.setHandler { reports.append($0) }
    return true
  }()

  static func install() { _ = installed }

  static func reports(at site: String) -> [PromiseDiagnostic] {
    reports.all.filter { $0.site == site }
  }
}

/// The `#fileID:#line` string diagnostics use for a promise made at that line.
func site(_ file: StaticString = #fileID, _ line: UInt = #line) -> String { "\(file):\(line)" }

/// Runs `body` on a new thread with the given stack size and waits for it to finish.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) async {
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
func later<T: Sendable>(_ value: T) -> Promise<T, TestError> {
  Promise { completion in
    DispatchQueue.global().async { completion(.success(value)) }
  }
}

/// Awaits the single result of a run.
func result<T: Sendable, E>(of promise: Promise<T, E>) async -> Result<T, E> {
  await withCheckedContinuation { continuation in
    promise.run { continuation.resume(returning: $0) }
  }
}
