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
  let inputs = ZipInputs(first, second, repeat each rest)
  return Promise<(A, B, repeat each C), E>(_combinator: { run, completion in
    let slots = ZipSlots<A, B, repeat each C>()
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
