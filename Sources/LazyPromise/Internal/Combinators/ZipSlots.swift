/// The inputs of a `zip`, kept as a tuple of promises of different value types.
final class ZipInputs<each V, E: Error>: @unchecked Sendable {
  let promises: (repeat Promise<each V, E>)

  init(_ promises: repeat Promise<each V, E>) {
    self.promises = (repeat each promises)
  }

  /// The inputs of one run: each stores its value into its slot, so the run gathers promises of one type.
  func storing(into slots: ZipSlots<repeat each V>) -> [Promise<Void, E>] {
    var stores: [Promise<Void, E>] = []
    repeat stores.append(Self.store(each promises, into: each slots.slots))
    return stores
  }

  private static func store<Value>(_ promise: Promise<Value, E>, into slot: ZipSlot<Value>) -> Promise<Void, E> {
    Promise<Void, E>(_stage: _ValueStage(upstream: promise._source, owner: promise._owner, .value { slot.value = $0 }))
  }
}

/// The values of one `zip` run. Each slot is written once, by its input, before that input's result reaches
/// the run's lock; the values are read after the last result has, so the lock orders every access.
final class ZipSlots<each V>: @unchecked Sendable {
  let slots: (repeat ZipSlot<each V>)

  init() {
    slots = (repeat ZipSlot<each V>())
  }

  func values() -> (repeat each V) {
    (repeat Self.value(of: each slots))
  }

  private static func value<Value>(of slot: ZipSlot<Value>) -> Value {
    guard let value = slot.value else { fatalError("Internal inconsistency: zip delivered with an input pending") }
    return value
  }
}

/// One input's value in a `zip` run.
final class ZipSlot<Value>: @unchecked Sendable {
  var value: Value?

  init() {}
}
