/// Releases `value` (and, through it, whatever only it held) in bounded stack, leaving `nil` behind.
///
/// The objects a run leaves behind form long ownership chains — one continuation holding the next, one nested
/// combinator's state holding the next level's — and releasing such a chain is a recursion as deep as the chain.
/// Objects that sit at intervals along a chain (relays, combinator states, operator stages, run handles) release
/// what they hold through this function instead: while the thread's trampoline has stack to spare it releases at
/// once (the nested releases check again when they reach the next such object), and once the budget is spent it
/// queues the release for the outermost trampoline step, which performs it in a loop. Outside any trampoline it
/// becomes the outermost step itself. Queuing costs one allocation; releasing at once costs none.
@inline(never)
func _releaseInBoundedStack<Value>(_ value: inout Value?) {
  guard value != nil else { return }
  _hop(
    { value = nil },
    {
      let deferred = value
      return { withExtendedLifetime(deferred) {} }
    })
  value = nil
}
