// MARK: - Zipping

/// Combines two or more promises with the same error type into one that delivers all their values as a tuple.
///
/// Lazy like every promise: nothing starts until the zipped promise runs, and each run runs the inputs again.
/// A run starts the inputs in argument order on the calling thread and delivers the tuple once the last one
/// succeeds, on the thread that delivered it. The first failure is delivered at once and the inputs still
/// running are cancelled. Cancelling the zipped run cancels every input.
///
/// ```swift
/// zip(users(), albums(), photos())
///   .then { users, albums, photos in merge(users, albums, photos) }
///   .run { print($0) }
/// ```
///
/// - Parameters:
///   - first: The first input.
///   - second: The second input.
///   - rest: Any further inputs, of any value types.
/// - Returns: A promise of the inputs' values, in argument order.
public func zip<A: Sendable, B: Sendable, each C: Sendable, E: Error>(
  _ first: Promise<A, E>, _ second: Promise<B, E>, _ rest: repeat Promise<each C, E>
) -> Promise<(A, B, repeat each C), E> {
  let inputs = _ZipInputs(first, second, repeat each rest)
  return Promise<(A, B, repeat each C), E>(_operator: { run, completion in
    let slots = _ZipSlots<A, B, repeat each C>()
    let gather = _Gather(inputs.storing(into: slots), rule: .allSucceed) { decisive, _ in
      if case .failure(let error)? = decisive {
        completion(.failure(error))
      } else {
        completion(.success(slots.values()))
      }
    }
    run.onStop(gather.stop)
    gather.start()
  })
}

/// The inputs of a `zip`, kept as a tuple of promises of different value types.
final class _ZipInputs<each V, E: Error>: @unchecked Sendable {
  let promises: (repeat Promise<each V, E>)

  init(_ promises: repeat Promise<each V, E>) {
    self.promises = (repeat each promises)
  }

  /// The inputs of one run: each stores its value into its slot, so the run gathers promises of one type.
  func storing(into slots: _ZipSlots<repeat each V>) -> [Promise<Void, E>] {
    var stores: [Promise<Void, E>] = []
    repeat stores.append(Self.store(each promises, into: each slots.slots))
    return stores
  }

  private static func store<Value>(_ promise: Promise<Value, E>, into slot: _ZipSlot<Value>) -> Promise<Void, E> {
    Promise<Void, E>(_stage: _MapStage(upstream: promise) { slot.value = $0 })
  }
}

/// The values of one `zip` run. Each slot is written once, by its input, before that input's result reaches
/// the run's lock; the values are read after the last result has, so the lock orders every access.
final class _ZipSlots<each V>: @unchecked Sendable {
  let slots: (repeat _ZipSlot<each V>)

  init() {
    slots = (repeat _ZipSlot<each V>())
  }

  func values() -> (repeat each V) {
    (repeat Self.value(of: each slots))
  }

  private static func value<Value>(of slot: _ZipSlot<Value>) -> Value {
    guard let value = slot.value else { fatalError("Internal inconsistency: zip delivered with an input pending") }
    return value
  }
}

/// One input's value in a `zip` run.
final class _ZipSlot<Value>: @unchecked Sendable {
  var value: Value?

  init() {}
}
