import Synchronization

/// The library's one lock: the standard library's `Mutex`, stored inline in the object whose state it guards (no
/// allocation of its own), and a witness word that shows the thread sanitizer the order the mutex imposes.
///
/// The witness (an acquiring load when a critical section starts, a releasing store when it ends) orders nothing the
/// mutex does not; it makes that order visible, because on Linux a contended `Mutex` waits in uninstrumented futex
/// code and the sanitizer would report two critical sections of one lock as a race.
///
/// `withLock` hands the body's result out as it is (`Mutex.withLock` asks for a `sending` one, which a state holding
/// non-`Sendable` promises cannot give). That is sound because each engine touches its state only under this lock
/// and never calls out while holding it. A state of a known type lives in the lock (`_Lock(CancelHandlers())`); a
/// generic engine's state machine lives beside it (`_StateLock`, which says why). `@inlinable` because the gather
/// engine is inlined into the caller's module.
@usableFromInline
struct _Lock<State>: ~Copyable {
  @usableFromInline let mutex: Mutex<State>
  @usableFromInline let witness = Atomic<Int>(0)

  /// Makes the lock with its initial state (which only the lock holds from now on).
  @inlinable
  init(_ initial: consuming State) {
    nonisolated(unsafe) let initial = initial  // it goes into the mutex, which guards every access from now on
    mutex = Mutex(initial)
  }

  /// Runs `body` with exclusive access to the state.
  ///
  /// The result goes out as it is, not in a wrapper: the engines run unspecialized in a caller's module, where every
  /// use of a generic wrapper type costs a runtime metadata look-up, several hundred instructions each.
  @inlinable
  @inline(__always)
  borrowing func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    mutex.withLock { (state: inout sending State) -> sending Result in
      _ = witness.load(ordering: .acquiring)
      defer { witness.store(0, ordering: .releasing) }
      // Unsafe to the checker, which cannot see that the result shares nothing with the state the lock keeps: each
      // engine takes out only what it then uses or lets go of with the lock released (see above).
      nonisolated(unsafe) let result = body(&state)
      return result
    }
  }
}

extension _Lock: @unchecked Sendable {}  // the mutex is what makes sharing the state safe

/// The lock of a generic engine (`_Gather`, `RetryLoop`, `ReduceLoop`, `SharedWork`, `AwaitBridge`): it guards a state
/// machine that the engine keeps beside it, in a stored property, and that each critical section reaches:
/// `lock.withLock { state.event() }`.
///
/// Why beside the lock, not in it: `Mutex` is a resilient type, so the layout of a `Mutex` holding anything but
/// `Void` is found at run time through a metadata look-up (Performance.md, "Measured alternatives in the engine").
///
/// The state's property is declared `@exclusivity(unchecked)`: this lock is what makes its accesses exclusive, and
/// the run-time exclusivity check would only add a call to each.
@usableFromInline
typealias _StateLock = _Lock<Void>

extension _Lock where State == Void {
  /// A lock for a state kept beside it.
  @inlinable
  init() {
    self.init(())
  }

  /// Runs `body`, which reads and changes the state this lock guards, with the lock held:
  /// `lock.withLock { state.event() }`.
  ///
  /// The state is reached inside `body`, not passed in as an `inout` argument: an `inout` access begins where the
  /// argument is evaluated, before the lock is taken, and the thread sanitizer reports two such accesses from two
  /// threads as a race (it did, in `_Gather`, when the state was passed as `withLock(&state) { $0.event() }`).
  @inlinable
  @inline(__always)
  borrowing func withLock<Result>(_ body: () -> Result) -> Result {
    withLock { (_: inout Void) in body() }
  }
}
