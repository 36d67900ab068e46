/// An observer of an eager `Future`, linked into the future's observer stack while it is pending and into a run
/// list once the result is delivered.
///
/// Both lists are intrusive (`stackNext` holds the next node's address) and own one reference to each node, so
/// registering an observer and delivering to it allocate nothing beyond the node itself.
@usableFromInline
class _FutureNode {
  /// Runs a node with the result it was handed; returns the nodes that became ready (a completed target's
  /// observers). Made where the node's types are concrete, so running a chain calls specialized code (a
  /// virtual method of a generic class would not be).
  @usableFromInline typealias Fire = (_FutureNode) -> _FutureNodeList

  /// The next node: the one registered before it in a pending stack, the one after it in a run list. Written before
  /// the state word's compare-and-swap publishes the node; after that only the thread that took the whole stack
  /// out of the word, or that runs the list, touches it, so the run-time exclusivity check would guard nothing.
  @usableFromInline @exclusivity(unchecked) final var stackNext: UInt = 0
  @usableFromInline final let fire: Fire

  @inlinable
  init(fire: @escaping Fire) {
    self.fire = fire
  }

  /// When only this node holds the future it would complete, takes that future's pending observers, so that a
  /// long pending chain is released iteratively rather than by nested `deinit`s.
  @usableFromInline
  func takeUniqueTargetStack() -> UInt { 0 }

  /// The node a list reference points to, taking over the list's reference.
  @inlinable
  static func taking(_ bits: UInt) -> _FutureNode {
    Unmanaged<_FutureNode>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
  }

  /// The node a list reference points to, leaving the list's reference in place.
  @inlinable
  static func borrowing(_ bits: UInt) -> _FutureNode {
    Unmanaged<_FutureNode>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
  }
}

/// An observer of a `Future<T, E>`: it holds the result between delivery and running.
///
/// `Delivered` is always `Result<T, E>?` (see `_FutureObserverOf`). It is a generic parameter of its own so that
/// `deinit`, which is not specialized, finds the slot's type in the object's own metadata: a field of type
/// `Result<T, E>?` would make it look the type up in the runtime's metadata cache on every node (two hash-table
/// look-ups, about 700 instructions).
@usableFromInline
class _FutureObserver<T, E: Error, Delivered>: _FutureNode {
  /// Written by the thread that takes the node off the pending stack (or finds the future completed), which then
  /// runs it: one thread at a time, so the run-time exclusivity check would guard nothing.
  @usableFromInline @exclusivity(unchecked) final var delivered: Delivered

  @inlinable
  init(fire: @escaping Fire) where Delivered == Result<T, E>? {
    delivered = nil
    super.init(fire: fire)
  }

  /// The delivered result, taken out of the node.
  @inlinable
  final func takeDelivered() -> Result<T, E> where Delivered == Result<T, E>? {
    guard let result = delivered.take() else {
      fatalError("Internal inconsistency: a future observer ran with no result delivered to it")
    }
    return result
  }
}

/// An observer of a `Future<T, E>`, as every stage and callback is.
@usableFromInline
typealias _FutureObserverOf<T, E: Error> = _FutureObserver<T, E, Result<T, E>?>

/// Delivered observers in the order they run; owns one reference to each node.
///
/// Not API: public only because ``FutureThenStep``'s `_settle(into:)` returns it to the stage that runs them.
public struct _FutureNodeList {
  @usableFromInline var head: UInt
  @usableFromInline var tail: UInt

  @inlinable
  init(head: UInt, tail: UInt) {
    self.head = head
    self.tail = tail
  }

  @inlinable
  static var empty: Self { Self(head: 0, tail: 0) }

  /// Turns an observer stack (newest first) into a run list in registration order, handing each node `result`.
  @inlinable
  static func delivering<T, E>(_ result: Result<T, E>, to stack: UInt) -> Self {
    var head: UInt = 0
    var bits = stack
    while bits != 0 {
      let node = unsafeDowncast(_FutureNode.borrowing(bits), to: _FutureObserverOf<T, E>.self)
      let older = node.stackNext
      node.delivered = result
      node.stackNext = head
      head = bits
      bits = older
    }
    return Self(head: head, tail: stack)
  }

  /// Runs the list through the trampoline, so that completions nested in callbacks stay stack-safe.
  @inlinable
  func run() {
    guard head != 0 else { return }
    _hop({ Self.drain(self) }, { { Self.drain(self) } })
  }

  /// Runs the nodes in order, each after the nodes that the one before it made ready (depth first, as nested
  /// calls would), releasing each node once it has run. A loop, not recursion: a chain of any length completes
  /// in constant stack.
  @usableFromInline
  static func drain(_ list: Self) {
    var head = list.head
    while head != 0 {
      let node = _FutureNode.taking(head)
      head = node.stackNext
      let ready = node.fire(node)
      if ready.head != 0 {
        _FutureNode.borrowing(ready.tail).stackNext = head
        head = ready.head
      }
      // A callback queued on the trampoline runs before the nodes after it (contract 6.8).
      if head != 0, _hasQueuedSteps() {
        let rest = Self(head: head, tail: 0)
        return _enqueueHop { Self.drain(rest) }
      }
    }
  }

  /// Releases the nodes of a pending future that is being freed, and iteratively the pending futures that only
  /// they held (a dropped pending chain of any length is freed in constant stack).
  @usableFromInline
  static func release(stack: UInt) {
    var bits = stack
    while bits != 0 {
      let node = _FutureNode.taking(bits)
      bits = node.stackNext
      let orphaned = node.takeUniqueTargetStack()
      if orphaned != 0 {
        var last = orphaned
        while case let older = _FutureNode.borrowing(last).stackNext, older != 0 { last = older }
        _FutureNode.borrowing(last).stackNext = bits
        bits = orphaned
      }
    }
  }
}
