import Synchronization

/// How far (in bytes) one thread's synchronous promise work may grow the stack past the point where it entered
/// the trampoline before further hops are queued instead of called.
///
/// 128 KiB keeps a 512 KiB secondary thread safe even when the caller has already used a good part of it, and is
/// large enough that a queued hop (one closure allocation) happens only once every few hundred stages.
@usableFromInline let _stackBudget: UInt = 128 * 1024

/// One stage in this many goes through the trampoline on a chain built with `then`; see `_AnyStage._hops`.
@usableFromInline let _hopInterval = 16

/// Per-thread trampoline state: where the outermost hop started, and the hops queued behind it.
///
/// The queue keeps direct-call order (contract 6.8). `queue[head...]` waits to run; a hop queued while a queued hop
/// runs goes in at `insert`, ahead of the hops queued before that one began (its younger siblings), so everything
/// it caused runs before them, as it would have by direct calls. `insert > head` means the running step has queued
/// work that has not run yet: then every later hop of that step is queued too, behind it, so none overtakes it.
@usableFromInline struct _TrampolineState {
  @usableFromInline var base: UInt = 0
  @usableFromInline var queue: [() -> Void] = []
  @usableFromInline var head: Int = 0
  @usableFromInline var insert: Int = 0
  /// The stack budget; only `_withStackBudget` (tests) changes it.
  @usableFromInline var budget: UInt = _stackBudget

  @usableFromInline init() {}

  /// Whether the running step has queued work that has not run yet.
  @inlinable var hasQueuedSteps: Bool { insert > head }
}

/// What `_hop` should do with the work it was given.
@usableFromInline enum _HopMode {
  /// No trampoline is active on this thread: do the work, then drain what it queued.
  case enter
  /// The stack still has room: do the work now.
  case call
  /// The stack budget is spent, or earlier work of this step is queued: queue the work for the outermost hop.
  case enqueue
}

/// Decides whether the next hop of synchronous promise work is called now or queued.
@usableFromInline
@inline(never)
func _hopMode() -> _HopMode {
  let state = trampolineState()
  let here = _currentStackAddress()
  let base = state.pointee.base
  if base == 0 {
    state.pointee.base = here
    return .enter
  }
  if state.pointee.hasQueuedSteps { return .enqueue }  // a direct call would overtake queued work
  // Stacks grow down on every platform Swift supports; a hop above `base` (a shallower frame) is always fine.
  return base &- here < state.pointee.budget || here > base ? .call : .enqueue
}

/// Queues work for the outermost hop on this thread, after what the running step queued before.
@usableFromInline
@inline(never)
func _enqueueHop(_ work: @escaping () -> Void) {
  let state = trampolineState()
  let insert = state.pointee.insert
  if insert == state.pointee.queue.count {
    state.pointee.queue.append(work)
  } else {
    state.pointee.queue.insert(work, at: insert)
  }
  state.pointee.insert = insert + 1
}

/// Whether work queued on this thread's trampoline by the running step has not run yet: code that goes on after
/// a call (a loop starting inputs, a list of handlers) then queues the rest of its work (`_afterQueued`) instead
/// of overtaking it.
@usableFromInline
@inline(never)
func _hasQueuedSteps() -> Bool {
  trampolineState().pointee.hasQueuedSteps
}

/// Queues `rest` behind the work the running step has queued, and returns `true`; or returns `false` when none is
/// waiting, and the caller goes on itself.
@inlinable
func _afterQueued(_ rest: @escaping () -> Void) -> Bool {
  guard _hasQueuedSteps() else { return false }
  _enqueueHop(rest)
  return true
}

/// Calls `body` with each of `items` in order, as a loop of direct calls would: once a call has queued work on the
/// trampoline, the rest of the loop is queued behind it, so no later call overtakes it.
@inlinable
func _forEachInOrder<Element>(_ items: ArraySlice<Element>, _ body: @escaping (Element) -> Void) {
  var rest = items
  while let item = rest.popFirst() {
    body(item)
    if !rest.isEmpty, _afterQueued({ _forEachInOrder(rest, body) }) { return }
  }
}

private let finishedHop: @Sendable () -> Void = {}

/// Runs the queued hops in order (each may queue more, ahead of the rest), then marks the trampoline inactive.
@usableFromInline
@inline(never)
func _drainHops() {
  let state = trampolineState()
  while state.pointee.head < state.pointee.queue.count {
    let work = state.pointee.queue[state.pointee.head]
    state.pointee.queue[state.pointee.head] = finishedHop  // release what the hop captured as soon as it ran
    state.pointee.head += 1
    state.pointee.insert = state.pointee.head
    work()
  }
  state.pointee.queue.removeAll(keepingCapacity: state.pointee.queue.capacity <= 64)
  state.pointee.head = 0
  state.pointee.insert = 0
  state.pointee.base = 0
}

/// Runs `body` with a trampoline of its own on this thread, and gives the thread's back afterwards: for `wait`,
/// which blocks, so that its run neither queues behind nor waits for work the caller's step has queued (which
/// could only run once the caller returns).
@usableFromInline
func _withOwnTrampoline<R>(_ body: () -> R) -> R {
  let state = trampolineState()
  var own = _TrampolineState()
  own.budget = state.pointee.budget
  swap(&own, &state.pointee)
  defer { swap(&own, &state.pointee) }
  return body()
}

/// Runs `body` with this thread's stack budget set to `bytes`, so a test reaches the trampoline's queue at any
/// depth it chooses (`bytes` = 0 queues every hop after the first).
@discardableResult
func _withStackBudget<R>(_ bytes: UInt, _ body: () throws -> R) rethrows -> R {
  let state = trampolineState()
  let saved = state.pointee.budget
  state.pointee.budget = bytes
  defer { state.pointee.budget = saved }
  return try body()
}

/// Runs `now` at once if the stack has room, or queues the closure `later` builds for the outermost hop.
///
/// Every step of a synchronous chain (invoking an upstream stage, delivering a result downstream) goes
/// through a hop, so a chain of any length runs in bounded stack. `later` allocates only when the budget is
/// spent (once every few hundred stages).
@inlinable
@inline(__always)
func _hop(_ now: () -> Void, _ later: () -> () -> Void) {
  switch _hopMode() {
  case .call:
    now()
  case .enter:
    now()
    _drainHops()
  case .enqueue:
    _enqueueHop(later())
  }
}

/// Delivers `value` to `receiver` through a hop (or directly, when `hop` is false).
@inlinable
@inline(__always)
func _deliver<Value>(_ value: Value, to receiver: @escaping @Sendable (Value) -> Void, hop: Bool = true) {
  if hop {
    _hop({ receiver(value) }, { { receiver(value) } })
  } else {
    receiver(value)
  }
}

/// Computes a value through a hop: `now()` at once if the stack has room, or, once the budget is spent, the
/// value `queued()` returns while its work waits for the outermost hop.
///
/// For the eager `Future`, whose steps return their result: a loop written as recursion calls back into a step
/// from its transform, and this keeps the stack bounded as `_hop` does for a promise's run.
@inlinable
@inline(__always)
func _hop<Value>(returning now: () -> Value, queued: () -> (Value, () -> Void)) -> Value {
  switch _hopMode() {
  case .call:
    return now()
  case .enter:
    let value = now()
    _drainHops()
    return value
  case .enqueue:
    let (value, work) = queued()
    _enqueueHop(work)
    return value
  }
}

/// How much deeper than the place where a join of a run last passed the trampoline's check the run's next joins
/// may go by direct calls, without the check.
///
/// The check reads this thread's trampoline state (a thread-local look-up, about 55 instructions): a recursive loop
/// written with `then` pays it at every iteration. A run remembers the stack address where one of its joins last
/// passed it; a join at most this far below that address calls directly. Between two checks the stack grows by at
/// most this much, so the trampoline's budget is overshot by at most this much. The address is a hint, read and
/// written with relaxed ordering, and may have been left by another thread of the run: thread stacks do not
/// overlap, so a thread whose stack address is less than this distance below another thread's hint has used less
/// than this distance of its own stack, where a direct call is safe too.
@usableFromInline let _joinWindow: UInt = 16 * 1024
