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
/// // A generic engine (_Gather, SharedWork, ...), which may run unspecialized in the caller's module: a
/// // `_Lock<Void>` beside the state, so that no transition looks the lock's type up in the runtime's metadata cache.
/// private let lock = _Lock(())
/// @exclusivity(unchecked) private var state: _GatherStateMachine<T, E>  // only touched inside `lock.withLock`
/// let action = lock.withLock { _ in state.received(result, from: index) }
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
    nonisolated(unsafe) let initial = initial
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
      nonisolated(unsafe) let result = body(&state)
      return result
    }
  }
}

extension _Lock: @unchecked Sendable {}  // the mutex is what makes sharing the state safe
