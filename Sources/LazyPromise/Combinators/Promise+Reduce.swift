// MARK: - Folding promises in order

extension Promise where T: Sendable {
  /// Runs lazy promises one after another and folds their values into one, or fails with the first error.
  ///
  /// Lazy (contract 11): nothing starts until the reduced promise runs, and each run runs the inputs again. A run
  /// starts the first input on the calling thread and each next input on the thread that delivered the value
  /// before it, once that value has been folded in; `combine` runs there too, once per value. The first failure
  /// is delivered at once and the later inputs never start. Cancelling the run cancels the input in progress and
  /// starts no other. With no inputs, a run succeeds with `initial` at once.
  ///
  /// ```swift
  /// let total = Promise.reduce(pages.map(downloadSize), initial: 0, +)  // one download at a time
  /// total.run(some: { print("\($0) bytes") }, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - promises: The inputs, run in this order.
  ///   - initial: The value to start from.
  ///   - combine: Folds one input's value into the accumulated value.
  /// - Returns: A promise of the folded value.
  /// - Complexity: O(*n*) per run, in constant stack even when every input completes synchronously.
  public static func reduce<Accumulated: Sendable>(
    _ promises: some Sequence<Promise<T, E>>, initial: Accumulated,
    _ combine: @escaping @Sendable (Accumulated, T) -> Accumulated
  ) -> Promise<Accumulated, E> {
    let inputs = Array(promises)
    return Promise<Accumulated, E>(_combinator: { run, completion in
      ReduceLoop.start(
        inputs, initial: initial, update: { accumulated, value in accumulated = combine(accumulated, value) }, run: run,
        completion: completion)
    })
  }

  /// Runs lazy promises one after another and folds their values into a value it changes in place, or fails with
  /// the first error.
  ///
  /// The standard library's `reduce(into:_:)` for ``reduce(_:initial:_:)``: the same runs, order, threads,
  /// failure and cancellation (contract 11), with `update` changing the accumulated value through `inout`, so
  /// an array or dictionary being built is not copied for each input (contract 31.5). Each run starts again
  /// from a copy of `initial`.
  ///
  /// ```swift
  /// let byID = Promise.reduce(ids.map(lookup), into: [Int: Artist]()) { artists, artist in
  ///   artists[artist.artistId] = artist
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - promises: The inputs, run in this order.
  ///   - initial: The value to start from, on each run.
  ///   - update: Folds one input's value into the accumulated value.
  /// - Returns: A promise of the folded value.
  /// - Complexity: O(*n*) per run, in constant stack even when every input completes synchronously.
  public static func reduce<Accumulated: Sendable>(
    _ promises: some Sequence<Promise<T, E>>, into initial: Accumulated,
    _ update: @escaping @Sendable (inout Accumulated, T) -> Void
  ) -> Promise<Accumulated, E> {
    let inputs = Array(promises)
    return Promise<Accumulated, E>(_combinator: { run, completion in
      ReduceLoop.start(inputs, initial: initial, update: update, run: run, completion: completion)
    })
  }
}
