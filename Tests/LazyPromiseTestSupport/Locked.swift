import Synchronization

/// A value behind a lock whose order the thread sanitizer can see.
///
/// On Linux a contended `Mutex` waits in futex code the sanitizer does not instrument, so it reports two critical
/// sections of one `Mutex` as a race. Here each critical section also loads a witness word (acquiring) when it
/// starts and stores it (releasing) when it ends: the order the mutex imposes, made visible, as the library's own
/// lock does.
///
/// ```swift
/// let delivered = Locked<[Int]>([])
/// delivered.withLock { $0.append(7) }
/// ```
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  private let witness = Atomic<Int>(0)

  /// A lock holding `value`.
  public init(_ value: Value) { mutex = Mutex(value) }

  /// Runs `body` with exclusive access to the value, and returns its result.
  public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try mutex.withLock { value in
      _ = witness.load(ordering: .acquiring)
      defer { witness.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}
