/// Releases `value` (and, through it, whatever only it held) in bounded stack, leaving `nil` behind.
///
/// The objects a run leaves behind form long ownership chains — one continuation holding the next, one nested
/// combinator's state holding the next level's — and releasing such a chain is a recursion as deep as the chain.
/// Objects that sit at intervals along a chain (relays, combinator states, operator stages, run handles) release
/// what they hold through this function instead: while the thread's trampoline has stack to spare it releases at
/// once (the nested releases check again when they reach the next such object), and once the budget is spent it
/// queues the release for the outermost trampoline step, which performs it in a loop. Outside any trampoline it
/// becomes the outermost step itself. Queuing costs one allocation; releasing at once costs none.
///
/// Not for function-typed properties of generic classes: passing one `inout` to this generic function makes the
/// compiler reabstract it into a temporary and write that back, so the last reference is dropped in the caller
/// after all, recursively. Those call `_hop` themselves, the same way (`_Relay.deinit`).
@inline(never)
func releaseInBoundedStack<Value>(_ value: inout Value?) {
  guard value != nil else { return }
  _hop(
    { value = nil },
    {
      let deferred = value
      return { withExtendedLifetime(deferred) {} }
    })
  value = nil
}

/// One stage in this many hands its continuation to the stage upstream through a relay; see `_Relay`.
@usableFromInline let _relayInterval = 256

/// Holds a run's continuation for the stage upstream and, when freed, releases it in bounded stack.
///
/// A run's continuations form a chain as long as the run: each stage's continuation holds the next one. Whoever
/// lets go of the first one — the task that delivered, or that drops its completion handler after a cancel or
/// without calling it — would free the whole chain recursively, about 130 bytes of stack per stage. A relay every
/// `_relayInterval` stages cuts that recursion: it releases what it holds the way `releaseInBoundedStack` does, so
/// at most `_relayInterval` continuations are freed recursively before the trampoline's budget check runs again.
/// It costs one allocation per `_relayInterval` stages (the closure that calls the relay captures only the relay,
/// so the relay is its context), and none on a chain shorter than that.
@usableFromInline
final class _Relay<Value>: @unchecked Sendable {  // `next` is written only by `init` and `deinit`
  @usableFromInline var next: (@Sendable (Value) -> Void)?

  @usableFromInline
  init(_ next: @escaping @Sendable (Value) -> Void) {
    self.next = next
  }

  deinit {
    // `releaseInBoundedStack`, written out for a function-typed property (see there).
    _hop(
      { next = nil },
      {
        let deferred = next
        return { withExtendedLifetime(deferred) {} }
      })
  }

  /// `continuation`, behind a relay.
  @usableFromInline
  static func wrapping(_ continuation: @escaping @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
    let relay = _Relay(continuation)
    return { relay.next?($0) }
  }
}
