// The engine's stack buffers, without the stack protector.
//
// `withUnsafeTemporaryAllocation` marks the function that holds the buffer for the stack protector: a canary read
// from thread-local storage on entry and compared on return. Every buffer here holds values of a type the engine
// names (a stage's input or output `Result`, the list of a segment's stages, a frame's output and waiter slot),
// written only by the engine at positions it computes from its own counts, so no caller's bytes or lengths reach
// them, which is what the canary guards against. A join passes through several functions that hold one.

/// Calls `body` with an uninitialized stack buffer of `capacity` values of `type`, with no stack-protector canary
/// (see the top of this file). `body` must leave the buffer deinitialized.
@inlinable
@inline(__always)
func _withStackBuffer<T, R>(of type: T.Type, capacity: Int, _ body: (UnsafeMutableBufferPointer<T>) -> R) -> R {
  _withUnprotectedUnsafeTemporaryAllocation(of: type, capacity: capacity, body)
}

/// Calls `body` with `byteCount` uninitialized bytes of stack aligned to `alignment`, with no stack-protector
/// canary (see the top of this file). `body` must leave the bytes deinitialized.
@inlinable
@inline(__always)
func _withStackBytes<R>(byteCount: Int, alignment: Int, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
  _withUnprotectedUnsafeTemporaryAllocation(byteCount: byteCount, alignment: alignment, body)
}
