import Synchronization

/// The state of an eager `Future`: one atomic word and a one-shot claim, no lock.
///
/// The word is `0` while the future is pending with no observers, the address of the newest observer node while
/// it is pending with observers (each node links to the one registered before it through `stackNext`), and
/// `completedMark` once the result is stored. The transitions are
///
/// - `register`: pending → pending with one more node (a compare-and-swap push), or `.deliverNow` when completed;
/// - `complete`: the first caller claims the right to complete, stores the result, then swaps in `completedMark`
///   and receives the observer stack to deliver (`.deliver`); every later caller gets `.ignore`.
///
/// The claim word also holds what `Future.cancel()` needs (see `Future+Cancel.swift`): bit 0 is the claim, bit 1
/// says the claim was taken by `cancel()`, and the bits above are the address of the `RunHandle` of the work to
/// stop, or 0. The handle can be set only while the future is unclaimed, so the claim, the cancel and the
/// registration of the work are decided on one word.
///
/// Nothing runs inside the machine: it only returns what the caller must do, so observers always run with no
/// lock held (there is none), and an observer may observe, complete or read the same future.
///
/// Memory order: a node is published by a releasing push and taken by the acquiring swap; the result is written
/// before the releasing swap and read only after an acquiring load has seen `completedMark`. Pushers never read
/// another node (they only copy its address), so a node can be freed by the completer while a push races.
@usableFromInline
struct _FutureStateMachine: ~Copyable {
  /// The word's value once the future is completed; observer nodes are aligned, so no node has this address.
  @usableFromInline static var completedMark: UInt { 1 }

  /// Bit 0 of the claim word: a completer (or `cancel()`) has claimed the future.
  @usableFromInline static var claimedBit: UInt { 1 }
  /// Bit 1 of the claim word: `cancel()` claimed it.
  @usableFromInline static var cancelledBit: UInt { 2 }
  /// The bits of the claim word that hold the work's `RunHandle`.
  @usableFromInline static var workMask: UInt { ~(claimedBit | cancelledBit) }

  @usableFromInline let word: Atomic<UInt>
  @usableFromInline let claim: Atomic<UInt>

  @inlinable
  init(completed: Bool) {
    word = Atomic(completed ? Self.completedMark : 0)
    claim = Atomic(completed ? Self.claimedBit : 0)
  }

  /// Whether the result is stored (and may be read).
  @inlinable
  var isCompleted: Bool { word.load(ordering: .acquiring) == Self.completedMark }

  /// What `register` asks of its caller.
  @usableFromInline
  enum RegisterAction {
    /// The node is queued; the completer will run it.
    case registered
    /// The future is already completed: the node was not queued; hand it the stored result now.
    case deliverNow
  }

  /// Queues `node` to receive the result, unless the future is already completed.
  @inlinable
  func register(_ node: _FutureNode) -> RegisterAction {
    var current = word.load(ordering: .acquiring)
    if current == Self.completedMark { return .deliverNow }
    let bits = UInt(bitPattern: Unmanaged.passRetained(node).toOpaque())
    while true {
      node.stackNext = current
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: bits, successOrdering: .releasing, failureOrdering: .acquiring)
      if exchanged { return .registered }
      if original == Self.completedMark {
        node.stackNext = 0  // it pointed at a node the completer now owns; the caller may run this node alone
        Unmanaged<_FutureNode>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        return .deliverNow
      }
      current = original
    }
  }

  /// What `complete` asks of its caller.
  @usableFromInline
  enum CompleteAction {
    /// The result is stored; deliver it to the observer stack (newest first; `0` when there is none).
    case deliver(stack: UInt)
    /// The future was already completed (or claimed by a racing completer); the result was not stored.
    case ignore
  }

  /// Completes the future once: the first caller's `store` runs (writing the result), every later call is ignored.
  @inlinable
  func complete(storing store: () -> Void) -> CompleteAction {
    guard claim.bitwiseOr(Self.claimedBit, ordering: .relaxed).oldValue & Self.claimedBit == 0 else { return .ignore }
    store()
    return .deliver(stack: word.exchange(Self.completedMark, ordering: .acquiringAndReleasing))
  }

  /// Completes the future once as cancelled: like `complete`, but the claim records the cancel. `.ignore` when
  /// already claimed; otherwise `work` receives the claim word as it was (its handle bits).
  @inlinable
  func cancel(work: inout UInt, storing store: () -> Void) -> CompleteAction {
    var current = claim.load(ordering: .acquiring)
    while current & Self.claimedBit == 0 {
      let (exchanged, original) = claim.compareExchange(
        expected: current, desired: current | Self.claimedBit | Self.cancelledBit, ordering: .acquiringAndReleasing)
      if exchanged {
        work = current
        store()
        return .deliver(stack: word.exchange(Self.completedMark, ordering: .acquiringAndReleasing))
      }
      current = original
    }
    return .ignore
  }

  /// Takes the observer stack of a pending future that is being freed (or that only the caller can reach).
  @inlinable
  func takePendingStack() -> UInt {
    var current = word.load(ordering: .acquiring)
    while current != 0 && current != Self.completedMark {
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: 0, successOrdering: .acquiring, failureOrdering: .acquiring)
      if exchanged { return current }
      current = original
    }
    return 0
  }
}
