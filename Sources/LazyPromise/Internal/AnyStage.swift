/// The non-generic root of every stage: it owns the stage upstream of it and releases a chain iteratively.
///
/// A chain of a million stages is a linked list a million links long; releasing it recursively (each deinit
/// releasing the next) would overflow the stack. `deinit` walks the list instead, taking each uniquely held
/// link out of its predecessor before that predecessor is freed.
@usableFromInline
class _AnyStage: @unchecked Sendable {
  /// The upstream stage, owned; `nil` when the upstream is a task closure (or there is none).
  @usableFromInline @exclusivity(unchecked) final var _owner: _AnyStage?

  /// Whether the calls across this stage's boundary (invoking it, and it delivering downstream) go through the
  /// trampoline. One stage in `_hopInterval` does; the others call directly, which is safe because a run of
  /// direct calls is at most `_hopInterval` stages deep, and saves the trampoline's thread-local look-up.
  @usableFromInline final let _hops: Bool

  /// How many stages separate this one from its chain's root (which is 1).
  @usableFromInline final let _depth: Int

  @inlinable
  init(owner: _AnyStage?) {
    _owner = owner
    _depth = (owner?._depth ?? 0) &+ 1
    _hops = _depth % _hopInterval == 0
  }

  deinit {
    guard var link = _owner.take() else { return }
    while isKnownUniquelyReferenced(&link) {
      guard let next = link._owner.take() else { return }
      link = next  // frees the previous link, whose own deinit now finds nothing to walk
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
  init(owner: _AnyStage?, invoke: @escaping Invoke) {
    _invoke = invoke
    super.init(owner: owner)
  }
}
