import Synchronization

// A fused segment that must wait for an input — a caller's task, another segment upstream, or a promise one of its
// stages returned — allocates one object: a `_Waiter`. It is at once
// - the completion handler a task is given: the handler is a closure whose one capture is the waiter, so its context
//   is the waiter itself, and it allocates nothing of its own;
// - the admission of that task's result (`complete`): exactly once, for the generation the task was started at;
// - the rest of the segment (`resume`): `_SegmentWaiter` drives the remaining stages with the input;
// - the hold of the segment's stages while it waits, which the input or `cancel()` takes, whichever comes first.
//
// The run's handle links every waiter that holds stages in a list under its lock, innermost first, without owning
// them (`CancelHandlers.park`), so that `cancel()` can take their stages: a task that keeps its completion handler
// (a mailbox, a registry that never removes its handlers) then keeps only the waiter and the handle alive, not the
// chain, its own task among it. A waiter unlinks itself when it is freed, unless a later wait or `cancel()` has
// unlinked it already (the common case, which takes no lock).

/// What a waiting segment allocates: see the top of this file.
@usableFromInline
class _Waiter: @unchecked Sendable {
  // `generation`, `below` and (debug) `taskSite` are written before the waiter is shared (`generation`, `taskSite`)
  // or only under the run's lock (`below`); the rest are atomics or constants.
  @usableFromInline let handle: RunHandle
  /// The run's generation when a task was started for this wait: its completion counts only for that generation.
  @exclusivity(unchecked) @usableFromInline var generation = 0  // written before the task is given the waiter
  /// The segment's last stage, retained (and through it every stage before it); taken once, by the input or by
  /// `cancel()`. `nil` from the start for a wait at the segment's last stage, where no stage runs again.
  @usableFromInline let stage: Atomic<Unmanaged<_AnyStage>?>
  /// The next waiter out, in the handle's list (an outer segment waiting for this one's output).
  @exclusivity(unchecked) @usableFromInline var below: Unmanaged<_Waiter>?  // only under the run's lock
  /// Whether the waiter is in the handle's list.
  @usableFromInline let linked = Atomic<Bool>(false)
  #if DEBUG
    /// Where the task this waiter was given to was made; `nil` while it waits for anything else.
    @exclusivity(unchecked) @usableFromInline var taskSite: _Site?  // written before the task is given the waiter
    /// Whether the task's completion handler was called.
    @usableFromInline let called = Atomic<Bool>(false)
  #endif

  /// Drives what waited with the input at `input` (a `Result` the subclass knows the type of, which it moves out);
  /// `false`, with the input left where it is, when the run was cancelled first. A closure that captures nothing,
  /// made where the subclass's types are concrete, rather than an overridden method: a method of a generic class
  /// runs unspecialized, looking up type metadata at every step (about 700 instructions a wait when tried).
  @usableFromInline let _resume: (_ waiter: _Waiter, _ input: UnsafeMutableRawPointer) -> Bool

  @inlinable
  init(
    handle: RunHandle, holding stage: _AnyStage?,
    resume: @escaping (_ waiter: _Waiter, _ input: UnsafeMutableRawPointer) -> Bool
  ) {
    self.handle = handle
    self.stage = Atomic(stage.map { Unmanaged.passRetained($0) })
    _resume = resume
  }

  /// Drives what waited with the input at `input`; see `_resume`.
  @inlinable
  final func resume(_ input: UnsafeMutableRawPointer) -> Bool {
    _resume(self, input)
  }

  /// Takes the stage it holds; `nil` when it holds none, or `cancel()` took it first.
  @inlinable
  final func take() -> _AnyStage? {
    stage.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue()
  }

  /// Whether it no longer holds a stage.
  final var isEmpty: Bool { stage.load(ordering: .acquiring) == nil }

  /// Completes the wait with a caller's task's result: admitted once, for the run and generation the task was
  /// started at, and not after `cancel()`.
  @inlinable
  final func complete<S, F: Error>(_ result: Result<S, F>) {
    #if DEBUG
      called.store(true, ordering: .relaxed)
    #endif
    switch handle._claim(generation) {
    case .accepted:
      _Fused.resume(self, with: result)
    case .cancelled:
      break
    case .duplicate:
      #if DEBUG
        PromiseDiagnostics.report(.completedMoreThanOnce, site: taskSite ?? _Site(file: #fileID, line: #line))
      #endif
    }
  }

  deinit {
    if linked.load(ordering: .acquiring) { handle._unlink(self) }
    stage.load(ordering: .acquiring)?.release()
    #if DEBUG
      if let taskSite, !called.load(ordering: .relaxed), !handle._isCancelled, handle._generation == generation {
        PromiseDiagnostics.report(.completionReleasedWithoutBeingCalled, site: taskSite)
      }
    #endif
  }
}

/// The waiter of a segment whose output is a `Result<T, E>`: the rest of the segment, from stage `index` on.
@usableFromInline
final class _SegmentWaiter<T, E: Error>: _Waiter, @unchecked Sendable {
  @usableFromInline let count: Int
  @usableFromInline let index: Int
  /// What comes after the segment. Kept until the waiter is freed, so a completion handler that the task keeps
  /// after the run ended keeps it too (contract 6.6). Moving it out once the input is used was measured on
  /// 2026-11-25 and not kept: as an `Optional` set to `nil`, or with a no-op swapped in, the write into this generic
  /// field re-abstracts the closure, and `promise.task` went from 2,813 instructions a stage to 4,477 and 3,724.
  @usableFromInline let completion: @Sendable (Result<T, E>) -> Void

  @inlinable
  init(
    handle: RunHandle, last: _AnyStage, count: Int, index: Int,
    completion: @escaping @Sendable (Result<T, E>) -> Void
  ) {
    self.count = count
    self.index = index
    self.completion = completion
    // A wait at the last stage: its input is the segment's output, and no stage of the segment runs again.
    super.init(handle: handle, holding: index == count ? nil : last) { waiter, input in
      let this = unsafeDowncast(waiter, to: _SegmentWaiter<T, E>.self)
      if this.index == this.count {
        _deliver(input.assumingMemoryBound(to: Result<T, E>.self).move(), to: this.completion)
        return true
      }
      guard let last = this.take() else { return false }
      _driveSegment(last, count: this.count, from: this.index, input: input, this.handle, this.completion)
      return true
    }
  }
}
