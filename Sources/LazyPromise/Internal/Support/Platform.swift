// Everything the library takes from the C library, in one file: the thread-local slot behind the trampoline,
// the stack depth it measures, the calling thread's identity, and writing diagnostics to standard error without
// Foundation.

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

#if canImport(Darwin)
  private func destroyTrampolineState(_ raw: UnsafeMutableRawPointer) {
    let state = raw.assumingMemoryBound(to: _TrampolineState.self)
    state.deinitialize(count: 1)
    state.deallocate()
  }
#else
  private func destroyTrampolineState(_ raw: UnsafeMutableRawPointer?) {
    guard let state = raw?.assumingMemoryBound(to: _TrampolineState.self) else { return }
    state.deinitialize(count: 1)
    state.deallocate()
  }
#endif

private let trampolineKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, destroyTrampolineState)
  precondition(status == 0, "LazyPromise: pthread_key_create failed with \(status)")
  return key
}()

/// This thread's trampoline state, made on first use and freed when the thread exits.
@inline(__always)
func trampolineState() -> UnsafeMutablePointer<_TrampolineState> {
  if let raw = pthread_getspecific(trampolineKey) {
    return raw.assumingMemoryBound(to: _TrampolineState.self)
  }
  let state = UnsafeMutablePointer<_TrampolineState>.allocate(capacity: 1)
  state.initialize(to: _TrampolineState())
  pthread_setspecific(trampolineKey, state)
  return state
}

/// The calling thread's identity: equal for two calls on one thread, different for two threads alive at once.
///
/// A frame of `_driveSegment` records it in the waiters it makes, so that an input that comes on the same thread
/// while that frame is still running knows the frame is below it on the stack, and reads the frame's list of stages.
@inlinable
@inline(__always)
func _currentThread() -> UInt {
  withUnsafeBytes(of: pthread_self()) { $0.load(as: UInt.self) }
}

/// How many bytes `_currentStackAddress` allocates: an atomic, so that the optimizer cannot see the count and turn
/// the allocation back into a fixed one.
@usableFromInline let _stackProbeBytes = Atomic<Int>(1)

/// An address on the caller's stack: how deep the stack is, for the trampoline's budget.
///
/// A dynamic stack allocation, not the address of a local variable: with the address sanitizer's use-after-return
/// detection on (`ASAN_OPTIONS=detect_stack_use_after_return=1`), a function's locals live in a "fake stack" on the
/// heap, so a local's address measured nothing and a 1,000,000-stage chain overflowed a 512 KiB thread (contract
/// 6.1). A dynamic allocation stays on the real stack.
@inlinable
@inline(__always)
func _currentStackAddress() -> UInt {
  _withStackBytes(byteCount: _stackProbeBytes.load(ordering: .relaxed), alignment: 1) {
    UInt(bitPattern: $0.baseAddress)
  }
}

/// Writes a line to standard error without Foundation.
func writeToStandardError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
      if written <= 0 { return }
      offset += written
    }
  }
}
