// A fused run: consecutive `then`/`map`/`flatMap` stages driven by direct calls, with no continuation per stage.
//
// Run stage by stage, a chain builds one continuation closure per stage per run: stage N's continuation captures
// stage N+1's, so a run of a prebuilt chain allocated once per stage, as hand-written nested callbacks do. A fused
// run instead takes up to `_segmentLimit` consecutive value stages at once (a segment), lists them on the stack
// from first to last, and passes each stage's output straight to the next stage's `_apply` in a stack buffer. A
// segment allocates one `_FusedTail` (which holds the segment's continuation while its upstream runs), however
// many stages it has; a stage whose function returns a promise that is not a known result (a join) gives the rest
// of its segment a tail of its own.
//
// Stack: a segment is at most `_segmentLimit` direct calls deep, and every crossing between segments (starting the
// upstream, delivering to the next segment) goes through the trampoline. A chain of many segments holds a chain of
// tails, each owning the next one's continuation; `_FusedTail.deinit` releases it in bounded stack.

/// How many consecutive value stages one segment of a fused run drives with direct calls.
@usableFromInline let _segmentLimit = 64

/// What a fused run asks of a value stage.
@usableFromInline
enum _FusedCall {
  /// Start the stage's upstream (the stage is the first of a segment), delivering its result to the tail.
  case start(_AnyFusedTail)
  /// Apply the stage, `index` in `fused`, to its input (a `Result<S, E>` that the stage moves out of the buffer),
  /// then pass the output on with `_Fused.forward` or `_Fused.join`.
  case apply(_ input: UnsafeMutableRawPointer, _ fused: _Fused, _ index: Int)
}

/// A value stage's part in fused runs, written where its types are concrete; see `_FusedCall`.
@usableFromInline
typealias _FusedEntry = (_ stage: _AnyStage, _ call: _FusedCall) -> Void

/// One segment of a fused run, as its stages see it: valid only during the calls of one drive of the segment.
@usableFromInline
struct _Fused {
  /// The segment's stages, first to last (not retained: the tail owns the last one, which owns the rest).
  @usableFromInline let stages: UnsafePointer<Unmanaged<_AnyStage>>
  @usableFromInline let count: Int
  /// The segment's continuation: a `@Sendable (Result<T, E>) -> Void` for the last stage's `T` and `E`.
  @usableFromInline let terminal: UnsafeRawPointer
  @usableFromInline let handle: RunHandle

  @inlinable
  init(stages: UnsafePointer<Unmanaged<_AnyStage>>, count: Int, terminal: UnsafeRawPointer, handle: RunHandle) {
    self.stages = stages
    self.count = count
    self.terminal = terminal
    self.handle = handle
  }

  /// The continuation of the segment's last stage, whose output type is `Result<T, E>`.
  @inlinable
  @inline(__always)
  func terminal<T, E: Error>(of _: Result<T, E>.Type) -> @Sendable (Result<T, E>) -> Void {
    terminal.assumingMemoryBound(to: (@Sendable (Result<T, E>) -> Void).self).pointee
  }

  /// Passes the output of stage `index` on: to the next stage of the segment by a direct call, or, from the last
  /// stage, to the segment's continuation through the trampoline.
  @inlinable
  @inline(__always)
  func forward<T, E: Error>(_ output: Result<T, E>, from index: Int) {
    let next = index &+ 1
    if next == count {
      _deliver(output, to: terminal(of: Result<T, E>.self))
    } else {
      withUnsafeTemporaryAllocation(of: Result<T, E>.self, capacity: 1) { buffer in
        let input = buffer.baseAddress.unsafelyUnwrapped
        input.initialize(to: output)
        stages[next]._withUnsafeGuaranteedRef { stage in
          stage._fused(stage, .apply(UnsafeMutableRawPointer(input), self, next))
        }
      }
    }
  }

  /// Continues stage `index` with `step`, which may deliver later (a join): the rest of the segment waits on a
  /// tail of its own.
  @inlinable
  func join<Step: ThenStep>(_ step: Step, from index: Int) {
    let next = index &+ 1
    if next == count {
      step._continue(handle, to: terminal(of: Result<Step.Success, Step.Failure>.self), hop: true)
    } else {
      let rest = stages[count &- 1]._withUnsafeGuaranteedRef { last in
        last._fusedTail(handle, count: count &- next, terminal: terminal)
      }
      step._continue(handle, to: { rest.resume($0) }, hop: true)
    }
  }
}

/// The continuation of a segment while its input is pending: it owns the segment's last stage (and so the
/// stages before it) and holds the segment's own continuation.
@usableFromInline
class _AnyFusedTail: @unchecked Sendable {
  @usableFromInline final let last: _AnyStage
  @usableFromInline final let count: Int
  @usableFromInline final let handle: RunHandle

  @inlinable
  init(last: _AnyStage, count: Int, handle: RunHandle) {
    self.last = last
    self.count = count
    self.handle = handle
  }

  /// Drives the segment with the input of its first stage, a `Result<S, E>`.
  @inlinable
  final func resume<S, E: Error>(_ input: Result<S, E>) {
    withUnsafeTemporaryAllocation(of: Result<S, E>.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress.unsafelyUnwrapped
      pointer.initialize(to: input)
      drive(UnsafeMutableRawPointer(pointer))
    }
  }

  /// Drives the segment with the input in `input`, which the first stage moves out; see `_FusedTail`.
  @usableFromInline
  func drive(_ input: UnsafeMutableRawPointer) {
    preconditionFailure("_AnyFusedTail is abstract")
  }

  /// Lists the segment's stages on the stack, first to last, and applies the first to `input`.
  @usableFromInline
  final func drive(_ input: UnsafeMutableRawPointer, terminal: UnsafeRawPointer) {
    withUnsafeTemporaryAllocation(of: Unmanaged<_AnyStage>.self, capacity: count) { stages in
      var stage = Unmanaged.passUnretained(last)
      var index = count &- 1
      stages.initializeElement(at: index, to: stage)
      while index > 0 {
        stage = stage._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0._owner.unsafelyUnwrapped) }
        index &-= 1
        stages.initializeElement(at: index, to: stage)
      }
      let fused = _Fused(
        stages: UnsafePointer(stages.baseAddress.unsafelyUnwrapped), count: count, terminal: terminal, handle: handle)
      stage._withUnsafeGuaranteedRef { first in first._fused(first, .apply(input, fused, 0)) }
    }
  }
}

/// A segment's tail for a last stage of output `Result<T, E>`.
@usableFromInline
final class _FusedTail<T, E: Error>: _AnyFusedTail, @unchecked Sendable {
  /// The segment's continuation; `nil` only while the tail is freed.
  @usableFromInline var completion: (@Sendable (Result<T, E>) -> Void)?

  @inlinable
  init(last: _AnyStage, count: Int, handle: RunHandle, completion: @escaping @Sendable (Result<T, E>) -> Void) {
    self.completion = completion
    super.init(last: last, count: count, handle: handle)
  }

  @usableFromInline
  override func drive(_ input: UnsafeMutableRawPointer) {
    withUnsafePointer(to: completion!) { drive(input, terminal: UnsafeRawPointer($0)) }
  }

  deinit {
    // The continuation may be the next segment's, which owns its own tail: a chain of segments would otherwise be
    // freed recursively. `releaseInBoundedStack`, written out for a function-typed property (see there); the
    // release happens inside the hop, so that the tails it frees measure their depth from here.
    _hop(
      { completion = nil },
      {
        let deferred = completion
        return { withExtendedLifetime(deferred) {} }
      })
  }
}

extension _Source {
  /// Starts this source, the upstream of a segment's first stage, delivering its result to the segment's tail.
  @inlinable
  func startSegment(_ tail: _AnyFusedTail) {
    let handle = tail.handle
    switch self {
    case .result(let result):
      guard !handle._isCancelled else { return }
      tail.resume(result)
    case .stage(let upstream):
      Self.startStage(upstream, handle, joining: true) { tail.resume($0) }
    case .task:
      start(handle) { admission in
        { result in
          if admission.admit(handle) { tail.resume(result) }
        }
      }
    }
  }
}

/// Runs the segment that ends at `last` (up to `_segmentLimit` fusable stages), delivering to `completion`.
@inlinable
func _runFused<T, E: Error>(
  _ last: _Stage<T, E>, _ handle: RunHandle, _ completion: @escaping @Sendable (Result<T, E>) -> Void
) {
  let count = Int(last._fusedRun)
  var first = Unmanaged.passUnretained(last as _AnyStage)
  for _ in 1..<count {
    first = first._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0._owner.unsafelyUnwrapped) }
  }
  let tail = _FusedTail(last: last, count: count, handle: handle, completion: completion)
  first._withUnsafeGuaranteedRef { $0._fused($0, .start(tail)) }
}
