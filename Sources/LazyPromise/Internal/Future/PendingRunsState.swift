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

/// The waiting runs of one pending future, under the lock of their `PendingRuns`: the first run, kept in the table
/// itself, then a doubly linked list of the later ones in the order they began, and where the future's result
/// stands.
///
/// A value type whose transitions, called under the lock, return what the engine does with the lock released.
/// Phases:
///
/// - `.waiting(observed:)`: the future is pending; `observed` once the engine was told to observe it (once, for
///   the whole table). The first run to wait takes the table's own slot (`addFirst`), which most pending futures
///   need alone, so they allocate no node; later runs are nodes linked at the end (`add`). `cancelFirst` and
///   `cancel` take a cancelled run out in O(1).
/// - `.ended`: the result was delivered (`deliver` handed over the first run and the list) or the future was freed
///   while pending (`abandon`). Nothing waits any more; `addFirst` and `add` answer `.deliverNow`, the cancels do
///   nothing.
///
/// The slot, once left, is not taken again: a run that starts later is a node, behind the list, so the order stays
/// the order the runs began. The machine is not generic: it links nodes and reads their handles, and never touches
/// a result or a completion, so the library's unspecialized code runs it without any metadata look-up.
@usableFromInline
struct PendingRunsStateMachine {
  /// Where the future's result stands.
  enum Phase: Equatable {
    case waiting(observed: Bool)
    case ended
  }

  /// The table's own slot for the first run.
  enum FirstRun: Equatable {
    /// No run has taken it yet.
    case unused
    /// The first run waits in it.
    case waiting
    /// The first run left it (delivered, cancelled or abandoned); it is not used again.
    case left
  }

  /// What the engine does after `addFirst` or `add`.
  @usableFromInline
  enum Added: Equatable {
    /// Nothing more: the run waits (after registering its cancel handler).
    case wait
    /// The run waits; the engine observes the future now, for the whole table (the first run only).
    case waitAndObserve
    /// The result is already here and was delivered: deliver it to this run at once (it does not wait).
    case deliverNow
  }

  private(set) var phase = Phase.waiting(observed: false)
  private(set) var first = FirstRun.unused
  /// The first run after the slot's; owns the list.
  private var head: _PendingRun?
  /// The run that began last; not owned.
  private unowned(unsafe) var tail: _PendingRun?

  @usableFromInline
  init() {}

  /// Whether no run is waiting.
  var isEmpty: Bool { first != .waiting && head == nil }

  /// A run begins to wait: in the table's slot if no run took it yet; `nil` if one did, when the run must wait as
  /// a node (`add`).
  @usableFromInline
  mutating func addFirst() -> Added? {
    guard case .waiting = phase else { return .deliverNow }
    guard first == .unused else { return nil }
    first = .waiting
    return observe()
  }

  /// A run begins to wait as a node: linked at the end of the list, unless the result is already delivered.
  @usableFromInline
  mutating func add(_ run: _PendingRun) -> Added {
    guard case .waiting = phase else { return .deliverNow }
    run.previous = tail
    if let tail { tail.next = run } else { head = run }
    tail = run
    run.isLinked = true
    return observe()
  }

  private mutating func observe() -> Added {
    guard case .waiting(observed: false) = phase else { return .wait }
    phase = .waiting(observed: true)
    return .waitAndObserve
  }

  /// The first run's cancel handler ran: `true` if it was cancelled (`isCancelled`) and has left the slot, so that
  /// the caller owns what the slot holds and lets go of it; `false` if there is nothing to do (it was interrupted,
  /// which still delivers, or it already left).
  ///
  /// `isCancelled` reads the slot's handle, so it is evaluated only while the run is in the slot: once it left,
  /// whoever made it leave may be clearing the slot with no lock held.
  mutating func cancelFirst(isCancelled: @autoclosure () -> Bool) -> Bool {
    guard case .waiting = phase, first == .waiting, isCancelled() else { return false }
    first = .left
    return true
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

  /// What waits when the phase ends: whether the slot's run does (it began first), and the first node of the
  /// list, from which the caller walks the list (now its own) in the order the runs began.
  @usableFromInline
  struct Waiting {
    @usableFromInline let first: Bool
    @usableFromInline let list: _PendingRun?

    init(first: Bool, list: _PendingRun?) {
      self.first = first
      self.list = list
    }
  }

  /// The future completed: returns the runs that wait, for the caller to deliver to.
  @usableFromInline
  mutating func deliver() -> Waiting {
    guard case .waiting = phase else {
      preconditionFailure("Future.promise: a future delivered its result twice to its waiting runs")
    }
    return end()
  }

  /// The future is freed while pending: returns the runs that wait, for the caller to let go of.
  mutating func abandon() -> Waiting {
    guard case .waiting = phase else { return Waiting(first: false, list: nil) }
    return end()
  }

  private mutating func end() -> Waiting {
    phase = .ended
    tail = nil
    defer { if first == .waiting { first = .left } }
    return Waiting(first: first == .waiting, list: head.take())
  }
}
