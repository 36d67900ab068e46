import Synchronization

// A fused run: consecutive `then`/`map`/`flatMap` stages driven by direct calls, with no continuation per stage.
//
// Run stage by stage, a chain makes one continuation closure per stage per run. A fused run takes up to
// `_segmentLimit` consecutive value stages at once (a segment): each passes its output to the next one's `_fused`
// entry in a stack buffer, and only the frame of `_driveSegment`, specialized for the last stage's output, holds the
// segment's continuation (passed through memory typed by a generic parameter, a function value is re-abstracted,
// which allocates). A segment that must wait for its input gets one `_Waiter` from that frame (`Waiter.swift`); one
// whose input is known at once allocates nothing. Stack: at most `_segmentLimit` direct calls, checked every
// `_hopInterval`, and a relay every `_relayInterval` stages bounds a release (`_Relay`). Engine.md walks through it.

/// How many consecutive value stages one segment of a fused run drives with direct calls.
@usableFromInline let _segmentLimit = 64

/// What a fused run asks of a value stage.
@usableFromInline
enum _FusedCall {
  /// Start the stage's upstream (the stage is the first of the segment): drive the segment with its result now if
  /// it is known, or later, through a `_Waiter`.
  case start(_ fused: _Fused)
  /// Apply the stage, `index` in `fused`, to its input (a `Result<S, E>` that the stage moves out of the buffer),
  /// then pass the output on with `_Fused.forward` or `_Fused.join`.
  case apply(_ input: UnsafeMutableRawPointer, _ fused: _Fused, _ index: Int)
}

/// Makes the `_Waiter` of the segment from stage `index` on; given by `_driveSegment` to every call it makes. The
/// frame keeps the waiter until it returns (or makes another), so the result is not retained: a caller that keeps
/// it longer retains it.
@usableFromInline
typealias _MakeRest = (_ index: Int) -> Unmanaged<_Waiter>

/// A value stage's part in fused runs, written where its types are concrete. It returns whether the segment's output
/// is now in `_Fused.output` (`false` when the run was cancelled, or the rest of the segment waits for an input).
@usableFromInline
typealias _FusedEntry = (_ stage: _AnyStage, _ call: _FusedCall, _ rest: _MakeRest) -> Bool

/// One segment of a fused run, as its stages see it: valid only during one call of `_driveSegment`.
@usableFromInline
struct _Fused {
  /// The segment's stages, first to last (not retained: whoever runs the segment keeps the last one, which owns
  /// the rest).
  @usableFromInline let stages: UnsafePointer<Unmanaged<_AnyStage>>
  @usableFromInline let count: Int
  /// Not retained: the caller of `_driveSegment` keeps the run alive for the whole call. `Unmanaged`, read through
  /// `withHandle`: an `unowned(unsafe)` reference passed to a call is retained for it.
  @usableFromInline let handle: Unmanaged<RunHandle>
  /// Where the last stage writes the segment's output, a `Result<T, E>` of its `T` and `E`.
  @usableFromInline let output: UnsafeMutableRawPointer

  @inlinable
  init(
    stages: UnsafePointer<Unmanaged<_AnyStage>>, count: Int, handle: Unmanaged<RunHandle>,
    output: UnsafeMutableRawPointer
  ) {
    self.stages = stages
    self.count = count
    self.handle = handle
    self.output = output
  }

  /// Whether the run was cancelled.
  @inlinable
  var isCancelled: Bool { handle._withUnsafeGuaranteedRef { $0._isCancelled } }

  /// Calls `body` with the run's handle, not retained.
  @inlinable
  @inline(__always)
  func withHandle<R>(_ body: (RunHandle) -> R) -> R {
    handle._withUnsafeGuaranteedRef(body)
  }

  /// Applies stage `index` to `input` by a direct call.
  @inlinable
  @inline(__always)
  func apply<S, E: Error>(_ index: Int, to input: Result<S, E>, _ rest: _MakeRest) -> Bool {
    _withStackBuffer(of: Result<S, E>.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress.unsafelyUnwrapped
      pointer.initialize(to: input)
      return stages[index]._withUnsafeGuaranteedRef { stage in
        stage._fused(stage, .apply(UnsafeMutableRawPointer(pointer), self, index), rest)
      }
    }
  }

  /// Passes the output of stage `index` on: to the next stage of the segment, or, from the last stage, into
  /// `output`.
  ///
  /// Every `_hopInterval` stages of a segment the call goes through the trampoline's check, as a stage run on its
  /// own does, so that the direct calls of a segment grow the stack by at most that many stages past the budget
  /// (frames are several times larger in debug builds and under the address sanitizer). Past the budget, the rest
  /// of the segment is queued, and delivers by itself.
  @inlinable
  @inline(__always)
  func forward<T, E: Error>(_ result: Result<T, E>, from index: Int, _ rest: _MakeRest) -> Bool {
    let next = index &+ 1
    if next == count {
      output.assumingMemoryBound(to: Result<T, E>.self).initialize(to: result)
      return true
    }
    if next % _hopInterval == 0 {
      var delivered = false
      _hop(
        { delivered = apply(next, to: result, rest) },
        {
          let remaining = rest(next).takeUnretainedValue()
          return { _Fused.resume(remaining, with: result) }
        })
      return delivered
    }
    return apply(next, to: result, rest)
  }

  /// Continues stage `index` with `promise`, which may deliver later (a join): the rest of the segment waits for
  /// it. The promise's own continuation drives the rest (one closure, as a stage run on its own makes).
  @inlinable
  func join<T, E: Error>(_ promise: Promise<T, E>, from index: Int, _ rest: _MakeRest) -> Bool {
    let waiter = rest(index &+ 1)
    withHandle { promise._source.start($0, resuming: waiter) }
    withExtendedLifetime(promise) {}
    return false
  }

  /// Continues stage `index` with `step`, which may deliver later: a `Promise` (the only `ThenStep` whose result
  /// may be unknown) joins as above; any other step through its `_continue`.
  @inlinable
  func join<Step: ThenStep>(_ step: Step, from index: Int, _ rest: _MakeRest) -> Bool {
    if let promise = step as? Promise<Step.Success, Step.Failure> {
      return join(promise, from: index, rest)
    }
    let next = rest(index &+ 1).takeUnretainedValue()
    withHandle { step._continue($0, to: { _Fused.resume(next, with: $0) }, hop: true) }
    return false
  }

  /// Drives what `waiter` waited for with its input.
  @inlinable
  static func resume<S, E: Error>(_ waiter: _Waiter, with input: Result<S, E>) {
    _withStackBuffer(of: Result<S, E>.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress.unsafelyUnwrapped
      pointer.initialize(to: input)
      if !waiter.resume(UnsafeMutableRawPointer(pointer)) {
        pointer.deinitialize(count: 1)  // the run was cancelled: the input goes no further
      }
    }
  }
}

extension _Source {
  /// Starts this source, the upstream of the first stage of `fused`, driving the segment with its result: at once
  /// for a known result, or through a `_Waiter` that waits for it.
  @inlinable
  func startSegment(_ fused: _Fused, _ rest: _MakeRest) -> Bool {
    if case .result(let result) = self {
      guard !fused.isCancelled else { return false }
      return fused.apply(0, to: result, rest)
    }
    let waiter = rest(0)
    fused.withHandle { start($0, resuming: waiter) }
    return false
  }

  /// Starts this source where chains join, resuming `waiter` (which the frame that made it keeps until this
  /// returns) with its result.
  ///
  /// A caller's task is given a completion handler whose one capture is the waiter, so that the handler allocates
  /// nothing of its own; the waiter admits the result (`_Waiter.complete`).
  @inlinable
  func start(_ handle: RunHandle, resuming waiter: Unmanaged<_Waiter>) {
    switch self {
    case .result(let result):
      guard !handle._isCancelled else { return }
      let waiter = waiter.takeUnretainedValue()
      _hop({ _Fused.resume(waiter, with: result) }, { { _Fused.resume(waiter, with: result) } })
    case .stage(let upstream):
      Self.startStage(upstream, handle, resuming: waiter)
    case .task(let task, let site):
      guard !handle._isCancelled else { return }
      waiter._withUnsafeGuaranteedRef { waiter in
        waiter.generation = handle._generation
        #if DEBUG
          waiter.taskSite = site
        #else
          _ = site
        #endif
        task { waiter.complete($0) }  // the handler's one capture, and its one retain
      }
    }
  }

  /// `start(_:resuming:)` for a stage upstream. Out of line: inlined, its body kept the optimizer from removing the
  /// copy that switching over `self` makes, and every join of a task paid a retain and a release of the task closure.
  @inlinable
  @inline(never)
  static func startStage(_ upstream: Unmanaged<_Stage<T, E>>, _ handle: RunHandle, resuming waiter: Unmanaged<_Waiter>)
  {
    let waiter = waiter.takeUnretainedValue()
    startStage(upstream, handle, joining: true) { _Fused.resume(waiter, with: $0) }
  }
}

/// Runs the segment that ends at the value stage `last`, delivering its output to `completion`; returns `false`,
/// having done nothing, when the segment would be a single stage, which runs as before.
///
/// The segment ends at `last` and begins after the nearest depth that is a multiple of `_segmentLimit` (or after
/// the nearest stage that is not a value stage); see the top of this file.
@inlinable
func _runFused<T, E: Error>(
  _ last: _Stage<T, E>, _ handle: RunHandle, _ completion: @escaping @Sendable (Result<T, E>) -> Void
) -> Bool {
  let count = min(Int(last._fusedRun), Int((last._depth &- 1) % UInt32(_segmentLimit)) &+ 1)
  guard count > 1 else { return false }
  let made = _driveSegment(
    Unmanaged.passUnretained(last), count: count, from: 0, input: nil, Unmanaged.passUnretained(handle), completion,
    stages: nil, thread: _currentThread())
  _ = made?.keep(owned: false)  // our caller keeps `last` and the run alive until this returns
  return true
}

/// Drives the stages from `index` on of the segment of `count` stages that ends at `last`: starts the segment when
/// `input` is `nil`, or applies stage `index` to `input`. Delivers the segment's output to `completion`.
///
/// The caller keeps `last` and the run alive until this returns. A waiter made here borrows both; it is returned
/// if anything but this frame refers to it, and the caller must then call its `keep` while both are still alive.
///
/// `stages`: the list of the segment's stages of a frame of this segment below this one on the stack (from
/// `index` on, at least), or `nil` to make one. `thread`: the calling thread (`_currentThread()`).
@inlinable
func _driveSegment<T, E: Error>(
  _ last: Unmanaged<_AnyStage>, count: Int, from index: Int, input: UnsafeMutableRawPointer?,
  _ handle: Unmanaged<RunHandle>,
  _ completion: @escaping @Sendable (Result<T, E>) -> Void, stages: UnsafePointer<Unmanaged<_AnyStage>>?,
  thread: UInt
) -> _Waiter? {
  if let stages {
    return _driveSegment(last, count: count, from: index, input: input, handle, completion, stages, thread)
  }
  return _withStackBuffer(of: Unmanaged<_AnyStage>.self, capacity: count) { buffer in
    var stage = last
    var position = count &- 1
    buffer.initializeElement(at: position, to: stage)
    while position > index {
      stage = stage._withUnsafeGuaranteedRef { $0._owner.unsafelyUnwrapped }
      position &-= 1
      buffer.initializeElement(at: position, to: stage)
    }
    return _driveSegment(
      last, count: count, from: index, input: input, handle, completion,
      UnsafePointer(buffer.baseAddress.unsafelyUnwrapped), thread)
  }
}

/// `_driveSegment` with the list of the segment's stages made: `stages[index..<count]`, first to last.
@inlinable
@inline(__always)
func _driveSegment<T, E: Error>(
  _ last: Unmanaged<_AnyStage>, count: Int, from index: Int, input: UnsafeMutableRawPointer?,
  _ handle: Unmanaged<RunHandle>,
  _ completion: @escaping @Sendable (Result<T, E>) -> Void, _ stages: UnsafePointer<Unmanaged<_AnyStage>>,
  _ thread: UInt
) -> _Waiter? {
  // The output, and after it the waiter made here that holds `last`, if any (a frame waits at most once): one
  // allocation, as a further nested one costs every join stack, and a captured `var` would be boxed. Raw bytes,
  // not a tuple, whose metadata unspecialized code would look up at every call.
  let alignment = MemoryLayout<_Waiter?>.alignment
  let holdingOffset = (MemoryLayout<Result<T, E>>.size &+ alignment &- 1) & ~(alignment &- 1)
  return _withStackBytes(
    byteCount: holdingOffset &+ MemoryLayout<_Waiter?>.size,
    alignment: max(MemoryLayout<Result<T, E>>.alignment, alignment)
  ) { frame in
    let raw = frame.baseAddress.unsafelyUnwrapped
    let outputPointer = raw.bindMemory(to: Result<T, E>.self, capacity: 1)
    let holding = (raw + holdingOffset).bindMemory(to: _Waiter?.self, capacity: 1)
    holding.initialize(to: nil)
    func rest(_ index: Int) -> Unmanaged<_Waiter> {
      let waiter: _Waiter = _SegmentWaiter(
        handle: handle, last: last, count: count, index: index, completion: completion, frame: stages,
        thread: thread)
      let made = Unmanaged.passUnretained(waiter)
      if holding.pointee != nil {  // an earlier waiter of this frame: kept as at the frame's return, and let go
        if !isKnownUniquelyReferenced(&holding.pointee) { _ = holding.pointee.unsafelyUnwrapped.keep(owned: false) }
        holding.deinitialize(count: 1)
      }
      holding.initialize(to: consume waiter)  // the frame keeps it until it returns
      return made
    }
    let fused = _Fused(stages: stages, count: count, handle: handle, output: UnsafeMutableRawPointer(outputPointer))
    let call: _FusedCall = input.map { .apply($0, fused, index) } ?? .start(fused)
    if stages[index]._withUnsafeGuaranteedRef({ $0._fused($0, call, rest) }) {
      _deliver(outputPointer.move(), to: completion)
    }
    // A waiter nothing else refers to can be resumed no more (no handler or queued input has it): it is freed
    // here, and nothing is kept.
    if holding.pointee != nil, isKnownUniquelyReferenced(&holding.pointee) { holding.pointee = nil }
    return holding.move()
  }
}
