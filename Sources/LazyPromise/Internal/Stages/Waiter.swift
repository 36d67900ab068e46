import Synchronization

// A fused segment that must wait for an input — a caller's task, another segment upstream, or a promise one of its
// stages returned — allocates one object: a `_Waiter`. It is at once
// - the completion handler a task is given: the handler is a closure whose one capture is the waiter, so its context
//   is the waiter itself, and it allocates nothing of its own;
// - the admission of that task's result (`complete`): exactly once, for the generation the task was started at;
// - the rest of the segment (`resume`): `_SegmentWaiter` drives the remaining stages with the input;
// - the hold of the segment's stages while it waits, which the input or `cancel()` takes, whichever comes first.
//
// The stage and the run's handle are borrowed while the frame of `_driveSegment` that made the waiter runs, so a
// wait that ends within it writes no shared reference count. As that frame returns, a waiter nothing else refers to
// is freed; any other gets references (`keep`), and one still holding the stage is parked in the run's handle, so
// that `cancel()` can take it. Engine.md, section 3, and Docs/Proposals/0004-shared-stages.md give the states.

/// What a waiting segment allocates: see the top of this file.
@usableFromInline
class _Waiter: @unchecked Sendable {
  // `generation`, `ownsHandle`, `below`, `above` and (debug) `taskSite` are written before the waiter is shared
  // (`generation`, `taskSite`), once by `keep` (`ownsHandle`), or only under the run's lock (`below`, `above`); the
  // rest are atomics or constants.
  /// The run's handle, borrowed while the frame that made the waiter runs (that frame's caller keeps the run
  /// alive); `keep` retains it (`ownsHandle`) if anything else still refers to the waiter as that frame returns.
  @usableFromInline let _handle: Unmanaged<RunHandle>
  /// The run's generation when a task was started for this wait: its completion counts only for that generation.
  @exclusivity(unchecked) @usableFromInline final var generation = 0  // written before the task is given the waiter
  /// The segment's last stage (and through it every stage before it), held as `hold` says; taken once, by the input
  /// or by `cancel()`. `nil` for a wait at the segment's last stage, where no stage runs again.
  @usableFromInline let stage: Unmanaged<_AnyStage>?
  /// The waiters linked before and after this one in the handle's list.
  @exclusivity(unchecked) @usableFromInline final var below: Unmanaged<_Waiter>?  // only under the run's lock
  @exclusivity(unchecked) @usableFromInline final var above: Unmanaged<_Waiter>?  // only under the run's lock
  /// How `stage` is held: one of the `_Hold` states. A byte, beside `linked`: see `_SegmentWaiter`'s size.
  @usableFromInline let hold: Atomic<UInt8>
  /// Whether the waiter is in the handle's list.
  @usableFromInline let linked = Atomic<Bool>(false)
  /// Whether `keep` retained `_handle`, which `deinit` then releases. Written before the frame that made the waiter
  /// lets it go, and read by `deinit`, which comes after every other reference is gone.
  @exclusivity(unchecked) @usableFromInline final var ownsHandle = false
  #if DEBUG
    /// Where the task this waiter was given to was made; `nil` while it waits for anything else.
    @exclusivity(unchecked) @usableFromInline final var taskSite: _Site?  // written before the task is given the waiter
    /// Whether the task's completion handler was called.
    @usableFromInline let called = Atomic<Bool>(false)
  #endif

  /// Drives what waited with the input at `input` (a `Result` the subclass knows the type of, which it moves out);
  /// `false`, with the input left where it is, when the run was cancelled first. A closure that captures nothing,
  /// made where the subclass's types are concrete, rather than an overridden method: a method of a generic class
  /// runs unspecialized, looking up type metadata at every step (about 700 instructions a wait when tried).
  @usableFromInline let _resume: (_ waiter: _Waiter, _ input: UnsafeMutableRawPointer) -> Bool

  /// `handle` and `stage` are borrowed: the frame that makes the waiter keeps them alive, and `keep` is called as
  /// it returns.
  @inlinable
  @inline(__always)
  init(
    handle: Unmanaged<RunHandle>, holding stage: Unmanaged<_AnyStage>?,
    resume: @escaping (_ waiter: _Waiter, _ input: UnsafeMutableRawPointer) -> Bool
  ) {
    _handle = handle
    self.stage = stage
    hold = Atomic(stage == nil ? _Hold.none : _Hold.borrowed)
    _resume = resume
  }

  /// Calls `body` with the run's handle, not retained.
  @inlinable
  @inline(__always)
  final func withHandle<R>(_ body: (RunHandle) -> R) -> R {
    _handle._withUnsafeGuaranteedRef(body)
  }

  /// Drives what waited with the input at `input`; see `_resume`.
  @inlinable
  final func resume(_ input: UnsafeMutableRawPointer) -> Bool {
    _resume(self, input)
  }

  /// Takes the stage for the input, which gives it back with `settle`: with the waiter's reference (the hold goes
  /// to `none`), or borrowed (`lent`, and `borrowed` is `true`: the frame that made the waiter had not returned).
  /// `nil` when it holds none, or `cancel()` took it first.
  @inlinable
  final func take() -> (stage: Unmanaged<_AnyStage>, borrowed: Bool)? {
    guard let stage else { return nil }
    var state = hold.load(ordering: .acquiring)
    while state == _Hold.borrowed || state == _Hold.retained {
      let (exchanged, original) = hold.compareExchange(
        expected: state, desired: state == _Hold.retained ? _Hold.none : _Hold.lent, ordering: .acquiringAndReleasing)
      if exchanged { return (stage, state == _Hold.borrowed) }
      state = original
    }
    return nil
  }

  /// Ends the input's use of the stage it took, once the rest of the segment has run: gives the reference it owns,
  /// or a new one, to `made` (the waiter the input's frame made, if it still holds the stage), and then releases
  /// an owned reference it did not give, or ends the loan, releasing the reference the frame that made this waiter
  /// left for it if that frame has returned since.
  @inlinable
  @inline(__always)
  final func settle(_ made: _Waiter?) {
    let stage = stage.unsafelyUnwrapped
    // Only the input writes the hold after `take` unless it was lent: `none` means the input owned a reference.
    let owned = hold.load(ordering: .acquiring) == _Hold.none
    if made?.keep(owned: owned) ?? owned {
      stage.release()
    } else if !owned, hold.exchange(_Hold.none, ordering: .acquiringAndReleasing) == _Hold.lentRetained {
      stage.release()
    }
  }

  /// Called as the frame that made the waiter (`_driveSegment`) returns, while its caller still keeps the run and
  /// the stage alive: the handle, and a stage still held (or lent), must now be kept by references. `owned`: the
  /// caller owns a reference to the stage, which it gives rather than taking a new one. Returns whether the caller
  /// still owns its reference.
  ///
  /// A stage still borrowed now waits past the frame: the waiter is first linked in the run's handle, so that
  /// `cancel()` can take it; if the run was cancelled, nothing is kept.
  @inlinable
  final func keep(owned: Bool) -> Bool {
    _ = _handle.retain()
    ownsHandle = true
    guard let stage else { return owned }
    var state = hold.load(ordering: .acquiring)
    if state == _Hold.borrowed, !withHandle({ $0._park(self) }) {
      _ = takeForCancel()  // borrowed: no reference to give back
      state = hold.load(ordering: .acquiring)
    }
    guard state == _Hold.borrowed || state == _Hold.lent else { return owned }  // the input has come and gone
    if !owned { _ = stage.retain() }  // the frame still keeps the stage alive: safe to retain
    while state == _Hold.borrowed || state == _Hold.lent {
      let (exchanged, original) = hold.compareExchange(
        expected: state, desired: state == _Hold.borrowed ? _Hold.retained : _Hold.lentRetained,
        ordering: .acquiringAndReleasing)
      if exchanged { return false }
      state = original
    }
    if !owned { stage.release() }  // taken by `cancel()`, or the loan ended, meanwhile
    return owned
  }

  /// Takes the stage for `cancel()`: returns it if the waiter owned a reference, which the caller releases. A lent
  /// stage is left to its input, which checks for cancellation at every stage.
  @usableFromInline
  final func takeForCancel() -> _AnyStage? {
    guard let stage else { return nil }
    var state = hold.load(ordering: .acquiring)
    while state == _Hold.borrowed || state == _Hold.retained {
      let (exchanged, original) = hold.compareExchange(
        expected: state, desired: _Hold.none, ordering: .acquiringAndReleasing)
      if exchanged { return state == _Hold.retained ? stage.takeRetainedValue() : nil }
      state = original
    }
    return nil
  }

  /// Whether its input has come or `cancel()` took its stage: nothing is left for `cancel()` to take.
  final var isEmpty: Bool {
    let state = hold.load(ordering: .acquiring)
    return state != _Hold.borrowed && state != _Hold.retained
  }

  /// Completes the wait with a caller's task's result: admitted once, for the run and generation the task was
  /// started at, and not after `cancel()`.
  @inlinable
  final func complete<S, F: Error>(_ result: Result<S, F>) {
    #if DEBUG
      called.store(true, ordering: .relaxed)
    #endif
    let generation = generation
    switch _handle._withUnsafeGuaranteedRef({ $0._claim(generation) }) {
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
    if linked.load(ordering: .acquiring) { withHandle { $0._unlink(self) } }
    if hold.load(ordering: .acquiring) == _Hold.retained { stage?.release() }
    #if DEBUG
      if let taskSite, !called.load(ordering: .relaxed),
        withHandle({ !$0._isCancelled && $0._generation == generation })
      {
        PromiseDiagnostics.report(.completionReleasedWithoutBeingCalled, site: taskSite)
      }
    #endif
    if ownsHandle { _handle.release() }
  }
}

/// How a `_Waiter` holds its segment's last stage.
@usableFromInline
enum _Hold {
  /// Nothing: none to hold, taken by `cancel()`, or the input has taken it (and ended its loan).
  @usableFromInline static let none: UInt8 = 0
  /// Borrowed: the frame that made the waiter is still running and keeps the stage alive.
  @usableFromInline static let borrowed: UInt8 = 1
  /// Retained: the waiter owns a reference.
  @usableFromInline static let retained: UInt8 = 2
  /// Lent to the input while the frame that made the waiter is still running.
  @usableFromInline static let lent: UInt8 = 3
  /// Lent, and that frame has returned, leaving a reference for the input to release.
  @usableFromInline static let lentRetained: UInt8 = 4
}

/// The waiter of a segment whose output is a `Result<T, E>`: the rest of the segment, from stage `index` on.
///
/// In release builds its instance is 120 bytes, and should stay at most that: glibc's malloc keeps blocks of up to
/// 128 bytes, header included, in its fast bins, and a larger waiter costs every join more in malloc and free
/// (Proposals/performance-history.md; the `promise.task` instruction ceiling catches it). Hence the byte-sized
/// `hold` beside `linked`, and the 32-bit `count` and `index` (a segment has at most `_segmentLimit` stages).
@usableFromInline
final class _SegmentWaiter<T, E: Error>: _Waiter, @unchecked Sendable {
  @usableFromInline let count: Int32
  @usableFromInline let index: Int32
  /// What comes after the segment. Kept until the waiter is freed, so a completion handler that the task keeps
  /// after the run ended keeps it too (contract 6.6). Not moved out once the input is used: the write into this
  /// generic field re-abstracts the closure at every join (measured: Proposals/performance-history.md).
  @usableFromInline let completion: @Sendable (Result<T, E>) -> Void
  /// The list of the segment's stages in the frame that made the waiter, and the thread it runs on: an input that
  /// takes the stage borrowed on that thread comes while that frame is below it on the stack, and reads the list
  /// there rather than walking the stages again. Read on no other thread, and after that frame never.
  @usableFromInline let frameStages: UnsafePointer<Unmanaged<_AnyStage>>
  @usableFromInline let frameThread: UInt

  @inlinable
  init(
    handle: Unmanaged<RunHandle>, last: Unmanaged<_AnyStage>, count: Int, index: Int,
    completion: @escaping @Sendable (Result<T, E>) -> Void, frame stages: UnsafePointer<Unmanaged<_AnyStage>>,
    thread: UInt
  ) {
    self.count = Int32(truncatingIfNeeded: count)
    self.index = Int32(truncatingIfNeeded: index)
    self.completion = completion
    frameStages = stages
    frameThread = thread
    // A wait at the last stage: its input is the segment's output, and no stage of the segment runs again.
    super.init(handle: handle, holding: index == count ? nil : last) { waiter, input in
      let this = unsafeDowncast(waiter, to: _SegmentWaiter<T, E>.self)
      if this.index == this.count {
        _deliver(input.assumingMemoryBound(to: Result<T, E>.self).move(), to: this.completion)
        return true
      }
      guard let (last, borrowed) = this.take() else { return false }
      let thread = _currentThread()
      let made = _driveSegment(
        last, count: Int(this.count), from: Int(this.index), input: input, this._handle, this.completion,
        stages: borrowed && thread == this.frameThread ? this.frameStages : nil, thread: thread)
      if made == nil { this.settle(nil) } else { this.settle(made) }  // the first path releases no `nil`
      return true
    }
  }
}
