/// The non-generic root of every stage: it owns the stage upstream of it and releases a chain iteratively.
///
/// A chain of a million stages is a linked list a million links long; releasing it recursively (each deinit
/// releasing the next) would overflow the stack. `deinit` walks the list instead, taking each uniquely held
/// link out of its predecessor before that predecessor is freed.
@usableFromInline
class _AnyStage: @unchecked Sendable {
  /// The upstream stage, owned: `init` retains it, and this stage's `deinit` releases it unless the walk in a
  /// downstream stage's `deinit` took it first. `nil` when the upstream is a task closure (or there is none).
  /// `Unmanaged`, so that freeing a stage whose upstream was taken calls nothing for it.
  // Unchecked: written by `init`, and cleared by a `deinit` (of a stage downstream that holds the only reference to
  // this one); every other access is a read, so no two accesses can overlap.
  @usableFromInline @exclusivity(unchecked) final var _owner: Unmanaged<_AnyStage>?

  /// How many stages separate this one from its chain's root (which is 1).
  @usableFromInline final let _depth: UInt32

  /// How many value stages end at this one, this one included, up to `_segmentLimit` (0 when this is not a value
  /// stage): the longest segment a fused run may drive up to here.
  @usableFromInline final let _fusedRun: UInt16

  /// Whether the calls across this stage's boundary (invoking it, and it delivering downstream) go through the
  /// trampoline. One stage in `_hopInterval` does; the others call directly, which is safe because a run of
  /// direct calls is at most `_hopInterval` stages deep, and saves the trampoline's thread-local look-up.
  @usableFromInline final let _hops: Bool

  /// How a value stage (`then`, `map`, `flatMap`) takes part in a fused run; other stages trap (a fused run never
  /// calls them: `_fusedRun` is 0). Not optional, so that freeing a stage does not go through `Optional`.
  ///
  /// One closure for starting and applying the stage, and the counters above packed in one word, so that a `then`
  /// stage of `Int`s stays within glibc's fast bins (Performance.md, "Measured alternatives in the engine").
  @usableFromInline final let _fused: _FusedEntry

  @inlinable
  init(owner: _AnyStage?, fused: _FusedEntry?) {
    // A `_FusedEntry?` parameter, not a default closure: the caller passes `nil`, and no closure is made for it.
    _owner = owner.map { Unmanaged.passRetained($0) }
    _depth = (owner?._depth ?? 0) &+ 1
    _hops = _depth % UInt32(_hopInterval) == 0
    if let fused {
      _fused = fused
      _fusedRun = min((owner?._fusedRun ?? 0) &+ 1, UInt16(_segmentLimit))
    } else {
      _fused = _AnyStage._notFused
      _fusedRun = 0
    }
  }

  /// The `_fused` entry of a stage that is not a value stage.
  @usableFromInline
  static func _notFused(_ stage: _AnyStage, _ call: _FusedCall, _ rest: _MakeRest) -> Bool {
    preconditionFailure("a fused run called a stage that is not a value stage")
  }

  deinit {
    guard var link = _owner?.takeRetainedValue() else { return }
    while isKnownUniquelyReferenced(&link), let next = link._owner {
      link._owner = nil
      link = next.takeRetainedValue()  // frees the previous link, whose own deinit now finds nothing to walk
    }
  }
}

/// A stage producing `Result<T, E>`: how to run it is a closure made where the stage's types are concrete, so
/// running a chain calls specialized code all the way down (a virtual method of a generic class would not be).
@usableFromInline
class _Stage<T, E: Error>: _AnyStage, @unchecked Sendable {
  @usableFromInline typealias Invoke = (_Stage<T, E>, RunHandle, @escaping @Sendable (Result<T, E>) -> Void) -> Void

  @usableFromInline let _invoke: Invoke

  @inlinable
  init(owner: _AnyStage?, fused: _FusedEntry? = nil, invoke: @escaping Invoke) {
    _invoke = invoke
    super.init(owner: owner, fused: fused)
  }
}
