import Synchronization

/// The library's one lock: the standard library's `Mutex`, stored inline in the object whose state it guards (no
/// allocation of its own), and a witness word that shows the thread sanitizer the order the mutex imposes.
///
/// The witness is read with an acquiring load when a critical section starts and written with a releasing store
/// when it ends. That orders nothing the mutex does not already order; it makes that order visible. On Linux a
/// contended `Mutex` waits in the standard library's futex code, which is not instrumented, so without the witness
/// the sanitizer reports two critical sections of one lock as a race. It costs two plain moves on x86-64 (`ldar`
/// and `stlr` on arm64).
///
/// `withLock` hands the body's result out as it is, where `Mutex.withLock` asks for a `sending` one that a state
/// holding non-`Sendable` promises and completions cannot give. That is sound for the engines that use it: each
/// declares itself `@unchecked Sendable` because every access to its state is under this lock, and each runs only
/// its state transition there, never calling out (observers, completions, cancel handlers) while holding it.
///
/// Two ways to use it, one type:
///
/// ```swift
/// // A state whose type is known where the code is compiled (RunHandle's cancel handlers): the lock holds it.
/// private let handlers = _Lock(CancelHandlers())
/// let taken = handlers.withLock { $0.take() }
///
/// // A generic engine's state machine: kept beside the lock and passed to it (`_StateLock`, which says why).
/// private let lock = _StateLock()  // guards `state`
/// @exclusivity(unchecked) private var state: RetryStateMachine<E, Held>  // only touched through `lock`
/// let action = lock.withLock { state.failed() }
/// perform(action)  // after the lock is released
/// ```
///
/// `@usableFromInline` and `@inlinable` because the engine of `all`, `allSettled`, `race`, `any` and
/// `first(of:where:)` is inlined into the caller's module (see `_GatherStateMachine`).
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
/// Why beside the lock, not in it: `Mutex` is a resilient type of the Synchronization module, so the layout of a
/// `Mutex` holding anything but `Void` is found at run time, by looking `Mutex<State>` up in the runtime's metadata
/// cache. Measured with `bash Benchmarks/Scripts/check-instructions.sh` (Swift 6.3.1, x86-64), `_Gather` with its
/// machine held by a `_Lock` took `promise.zip.3`, where the engine runs unspecialized, from 99,228 to 105,546
/// instructions a run (+6.4 %), and `promise.race.100`, specialized, from 16,417 to 19,209 (+17 %, 3,590 of them
/// instantiating that metadata).
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
