import Synchronization

/// A thread-safe list of what a test observed.
///
/// ```swift
/// let log = Recorder<String>()
/// promise.run { _ in log.append("delivered") }
/// #expect(log.all == ["delivered"])
/// ```
public final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])

  /// An empty list.
  public init() {}

  /// Adds `value` at the end.
  public func append(_ value: Value) { values.withLock { $0.append(value) } }

  /// Forgets every value recorded so far.
  public func removeAll() { values.withLock { $0.removeAll() } }
  /// Everything appended so far, in order.
  public var all: [Value] { values.withLock { $0 } }
  /// How many values were appended so far.
  public var count: Int { values.withLock { $0.count } }
}

/// A thread-safe counter.
///
/// ```swift
/// let starts = Counter()
/// let promise = Promise<Int, Never> { completion in starts.increment(); completion(.success(1)) }
/// #expect(starts.current == 0)
/// ```
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  /// A counter at zero.
  public init() {}

  /// Adds one and returns the new count.
  @discardableResult
  public func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
  /// Subtracts one.
  public func decrement() { value.subtract(1, ordering: .relaxed) }
  /// The count now.
  public var current: Int { value.load(ordering: .relaxed) }
}
