import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

/// A pthread mutex and the state it guards, in one allocation: the state is the buffer's header and the mutex
/// its tail-allocated element, so the mutex has a stable address and costs no allocation of its own.
///
/// `withLock` runs only the caller's state transition under the mutex; callers never call out (observers,
/// completions, cancel handlers) while holding it. (`ManagedBuffer` is not `Sendable`; a type that shares a
/// `_Locked` across threads declares itself `@unchecked Sendable`, the lock being what makes that true.)
final class _Locked<State>: ManagedBuffer<State, pthread_mutex_t> {
  /// Makes the lock with its initial state.
  static func make(_ initial: State) -> _Locked<State> {
    let buffer = create(minimumCapacity: 1) { _ in initial }
    buffer.withUnsafeMutablePointerToElements { mutex in
      let status = pthread_mutex_init(mutex, nil)
      precondition(status == 0, "LazyPromise: pthread_mutex_init failed with \(status)")
    }
    return unsafeDowncast(buffer, to: _Locked<State>.self)
  }

  deinit {
    // The header (the state) is destroyed by `ManagedBuffer`; the mutex is ours to destroy.
    _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    withUnsafeMutablePointers { state, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body(&state.pointee)
    }
  }
}

/// The library's one lock is the standard library's `Mutex`, stored inline in the object that owns the state (no
/// allocation of its own). `withLock` asks its body to return a `sending` value, which a state that holds
/// non-`Sendable` promises and completions cannot give; `withLockedState` hands the body's result out as it is.
///
/// That is sound for the engines that use it: each one declares itself `@unchecked Sendable` because every access
/// to its state is under this lock, and each runs only its state transition there, never calling out
/// (observers, completions, cancel handlers) while holding it.
extension Mutex where Value: ~Copyable {
  borrowing func withLockedState<Result>(_ body: (inout Value) -> Result) -> Result {
    withLock { (value: inout sending Value) -> sending _Unchecked<Result> in
      nonisolated(unsafe) let result = body(&value)
      return _Unchecked(result)
    }.value
  }
}
