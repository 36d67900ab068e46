/// A run of a pending future's lazy view (`Future.promise`) waiting for the result: one node of the future's list
/// of waiting runs, and what the run's cancel handler stops.
///
/// The non-generic part: the links, and the run it belongs to. `_PendingRunOf` adds the completion.
///
/// Ownership: the list owns a linked node (through `next`; `previous` does not own), the run's cancel handler owns
/// it too. Whoever unlinks it — a cancel, the delivery that takes the whole list, a future freed while pending —
/// owns its `handle` and completion from then on, and is the only one to touch them; while it is linked, they are
/// touched only under the list's lock.
@usableFromInline
class _PendingRun: @unchecked Sendable {  // its mutable fields follow the ownership rule above
  /// The next run to deliver to, which began after this one.
  // `@exclusivity(unchecked)`: written only under the list's lock or by the one owner of an unlinked node (above).
  @usableFromInline @exclusivity(unchecked) final var next: _PendingRun?
  /// The run that began before this one; not owned.
  @usableFromInline @exclusivity(unchecked) final unowned(unsafe) var previous: _PendingRun?
  /// Whether this node is in the list (under the list's lock).
  @usableFromInline @exclusivity(unchecked) final var isLinked = false
  /// The run; `nil` once whoever unlinked the node let go of it (so a handle and its cancel handler, which holds
  /// this node, do not keep each other).
  @usableFromInline @exclusivity(unchecked) final var handle: RunHandle?
  /// The run's generation when it began to wait: the delivery claims it, as a task's completion does.
  @usableFromInline final let generation: Int

  @inlinable
  init(handle: RunHandle, generation: Int) {
    self.handle = handle
    self.generation = generation
  }

  /// Called by the run's cancel handler: a cancelled run leaves the list at once. Overridden by `_PendingRunOf`.
  @usableFromInline
  func stop() {}

  /// The cancel handler of `run`: a closure whose one capture is the node, which allocates nothing of its own
  /// (it is made here, in non-generic code, so it captures no generic types either).
  @usableFromInline
  static func stopHandler(_ run: _PendingRun) -> @Sendable () -> Void {
    { run.stop() }
  }
}

/// The waiting runs of one pending future, under the lock of their `PendingRuns`: a doubly linked list in the
/// order the runs began, and where the future's result stands.
///
/// A value type whose transitions, called under the lock, return what the engine does with the lock released.
/// Phases:
///
/// - `.waiting(observed:)`: the future is pending; `observed` once the engine was told to observe it (once, for
///   the whole list). `add` links a run at the end, `cancel` unlinks a cancelled run in O(1).
/// - `.ended`: the result was delivered (`deliver` handed over the list) or the future was freed while pending
///   (`abandon`). Nothing is linked any more; `add` answers `.deliverNow`, `cancel` does nothing.
///
/// The machine is not generic: it links nodes and reads their handles, and never touches a result or a
/// completion, so the library's unspecialized code runs it without any metadata look-up.
@usableFromInline
struct PendingRunsStateMachine {
  /// Where the future's result stands.
  enum Phase: Equatable {
    case waiting(observed: Bool)
    case ended
  }

  /// What the engine does after `add`.
  @usableFromInline
  enum Added: Equatable {
    /// Nothing more: the run waits in the list (after registering its cancel handler).
    case wait
    /// The run waits; the engine observes the future now, for the whole list (the first run only).
    case waitAndObserve
    /// The result is already here and was delivered: deliver it to this run at once (it was not linked).
    case deliverNow
  }

  private(set) var phase = Phase.waiting(observed: false)
  /// The run that began first; owns the list.
  private var head: _PendingRun?
  /// The run that began last; not owned.
  private unowned(unsafe) var tail: _PendingRun?

  @usableFromInline
  init() {}

  /// Whether no run is waiting.
  var isEmpty: Bool { head == nil }

  /// A run begins to wait: linked at the end of the list, unless the result is already delivered.
  @usableFromInline
  mutating func add(_ run: _PendingRun) -> Added {
    guard case .waiting(let observed) = phase else { return .deliverNow }
    run.previous = tail
    if let tail { tail.next = run } else { head = run }
    tail = run
    run.isLinked = true
    phase = .waiting(observed: true)
    return observed ? .wait : .waitAndObserve
  }

  /// `run`'s cancel handler ran: `true` if the run was cancelled and is now unlinked, so that the caller owns it
  /// and lets go of what it holds; `false` if there is nothing to do (it was interrupted, which still delivers, or
  /// it is no longer in the list).
  mutating func cancel(_ run: _PendingRun) -> Bool {
    guard case .waiting = phase, run.isLinked, run.handle?._isCancelled == true else { return false }
    let next = run.next
    if let previous = run.previous { previous.next = next } else { head = next }
    if let next { next.previous = run.previous } else { tail = run.previous }
    run.next = nil
    run.previous = nil
    run.isLinked = false
    return true
  }

  /// The future completed: returns the first waiting run, from which the caller walks the list (now its own) in
  /// the order the runs began.
  @usableFromInline
  mutating func deliver() -> _PendingRun? {
    guard case .waiting = phase else {
      preconditionFailure("Future.promise: a future delivered its result twice to its waiting runs")
    }
    return end()
  }

  /// The future is freed while pending: returns the first waiting run, for the caller to let go of the list.
  mutating func abandon() -> _PendingRun? {
    guard case .waiting = phase else { return nil }
    return end()
  }

  private mutating func end() -> _PendingRun? {
    phase = .ended
    tail = nil
    return head.take()
  }
}
