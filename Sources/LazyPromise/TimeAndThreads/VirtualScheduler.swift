import Synchronization

/// A scheduler whose clock moves only when you say: for tests of code that waits, without waiting.
///
/// Scheduled work runs when ``advance(by:)`` (or ``run()``) reaches its due time, on the thread that calls it, in
/// due-time order and, for equal times, in the order it was scheduled. Work that schedules more work within the
/// window of an `advance` runs in the same call. Scheduling is thread-safe; no lock is held while work runs.
///
/// ```swift
/// let clock = VirtualScheduler()
/// let results = lookup(id: "909253")
///   .timeout(.seconds(10), on: clock, error: .timedOut)
/// results.run { print($0) }
/// clock.advance(by: .seconds(10))  // prints failure(timedOut) unless the lookup answered first
/// ```
public final class VirtualScheduler: PromiseScheduler {
  /// Where a piece of work stands in the queue: by due time, then by the order of scheduling.
  private struct Entry: Comparable {
    let due: Duration
    let id: UInt64

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.due, lhs.id) < (rhs.due, rhs.id)
    }
  }

  private struct State {
    var now: Duration = .zero
    var nextID: UInt64 = 0
    /// A binary min-heap of entries. A cancelled entry stays until it reaches the top; `work` says which are live.
    var heap: [Entry] = []
    var work: [UInt64: @Sendable () -> Void] = [:]

    mutating func insert(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> UInt64 {
      let id = nextID
      nextID += 1
      self.work[id] = work
      heap.append(Entry(due: now + max(delay, .zero), id: id))
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard heap[child] < heap[parent] else { break }
        heap.swapAt(child, parent)
        child = parent
      }
      return id
    }

    /// Takes the first live work due by `deadline` (moving the clock to it), or moves the clock to `deadline`.
    mutating func takeFirst(dueBy deadline: Duration?) -> (@Sendable () -> Void)? {
      while let first = heap.first {
        guard let work = work[first.id] else {
          removeFirst()  // cancelled
          continue
        }
        if let deadline, first.due > deadline { break }
        removeFirst()
        self.work[first.id] = nil
        now = max(now, first.due)
        return work
      }
      if let deadline { now = max(now, deadline) }
      return nil
    }

    private mutating func removeFirst() {
      heap.swapAt(0, heap.count - 1)
      heap.removeLast()
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < heap.count && heap[left] < heap[smallest] { smallest = left }
        if right < heap.count && heap[right] < heap[smallest] { smallest = right }
        if smallest == parent { return }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
  }

  private let state = _Lock(State())

  /// Creates a scheduler whose clock reads zero.
  ///
  /// ```swift
  /// let clock = VirtualScheduler()
  /// ```
  public init() {}

  /// How much virtual time has passed since the scheduler was made.
  ///
  /// ```swift
  /// clock.advance(by: .seconds(3))
  /// assert(clock.now == .seconds(3))
  /// ```
  public var now: Duration { state.withLock { $0.now } }

  /// How many pieces of work are scheduled and not yet run or cancelled.
  ///
  /// Useful to check that an operator cancelled its timers:
  ///
  /// ```swift
  /// handle.cancel()
  /// #expect(clock.pendingCount == 0)
  /// ```
  public var pendingCount: Int { state.withLock { $0.work.count } }

  /// Schedules `work` at the current virtual time; it runs at the next ``advance(by:)`` or ``run()``.
  ///
  /// ```swift
  /// clock.enqueue { print("ran") }
  /// clock.advance(by: .zero)  // prints "ran"
  /// ```
  ///
  /// - Parameter work: The work to run.
  public func enqueue(_ work: @escaping @Sendable () -> Void) {
    _ = state.withLock { $0.insert(after: .zero, work) }
  }

  /// Schedules `work` at `delay` past the current virtual time; cancelling removes it (and releases it) at once.
  ///
  /// ```swift
  /// let timer = clock.enqueue(after: .seconds(1)) { print("one virtual second") }
  /// clock.advance(by: .seconds(1))  // prints
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait in virtual time; zero or less means now.
  ///   - work: The work to run.
  /// - Returns: What cancels the work.
  public func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
    let id = state.withLock { $0.insert(after: delay, work) }
    return ScheduledWork { [weak self] in
      let removed = self?.state.withLock { $0.work.removeValue(forKey: id) }
      withExtendedLifetime(removed) {}  // released here, outside the lock
    }
  }

  /// Moves the clock forward by `interval`, running every piece of work that falls due on the way.
  ///
  /// Work runs on the calling thread, in due-time order, with the clock reading its due time; work it schedules
  /// within the interval runs too. When it returns, the clock reads the old time plus `interval`.
  ///
  /// Each piece of work finishes what it does synchronously before the next one runs, at any stack depth: called
  /// from inside a handler or a task, `advance` runs the work on a trampoline of its own (as `wait` does), so
  /// nothing it starts waits for its caller to return.
  ///
  /// ```swift
  /// promise.delay(.seconds(2), on: clock).run { print($0) }
  /// clock.advance(by: .seconds(1))  // nothing yet
  /// clock.advance(by: .seconds(1))  // prints
  /// ```
  ///
  /// - Parameter interval: How far to move the clock; zero (the default) runs only the work due now, and a
  ///   negative interval counts as zero.
  public func advance(by interval: Duration = .zero) {
    let deadline = state.withLock { $0.now + max(interval, .zero) }
    _withOwnTrampoline {
      while let work = state.withLock({ $0.takeFirst(dueBy: deadline) }) {
        work()
      }
    }
  }

  /// Runs every piece of work, moving the clock to each one's due time, until none is left.
  ///
  /// Work that keeps scheduling more (a retry loop with no limit) keeps this call running. Each piece of work
  /// finishes what it does synchronously before the next one runs, at any stack depth, as in `advance(by:)`.
  ///
  /// ```swift
  /// promise.retry(3, backoff: .constant(.seconds(1)), on: clock).run { print($0) }
  /// clock.run()  // every attempt and wait, in virtual time
  /// ```
  public func run() {
    _withOwnTrampoline {
      while let work = state.withLock({ $0.takeFirst(dueBy: nil) }) {
        work()
      }
    }
  }
}
