// MARK: - Mapping a collection through asynchronous work

extension Promise where T: Sendable {
  /// Maps each input through asynchronous work and delivers every value, in input order, or the first error.
  ///
  /// One step for "fetch each of these": `transform` makes the promise for an input only when that input starts,
  /// so with `maxConcurrent` at most that many transforms have run ahead of the values that came back. Otherwise
  /// it is ``all(_:maxConcurrent:)`` (contract 12, 22): lazy — nothing, not even `transform`, runs until the
  /// combined promise runs, and each run maps the inputs again; inputs start in order on the calling thread, the
  /// next as each one succeeds; the first failure is delivered at once, the running inputs are cancelled and the
  /// rest never start (their `transform` never runs); cancelling the run cancels the running inputs. With no
  /// inputs, a run succeeds with `[]` at once.
  ///
  /// ```swift
  /// let artists = Promise.all(ids, maxConcurrent: 4) { id in lookup(id: id) }
  /// artists.run(some: show, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - inputs: What to map; the values are delivered in this order, whatever order the work finishes in.
  ///   - maxConcurrent: How many inputs may be in flight at once; `nil` (the default) starts them all. Values
  ///     below 1 count as 1.
  ///   - transform: Makes the work for one input; it runs when that input starts, on the thread that starts it.
  /// - Returns: A promise of every input's value.
  /// - Complexity: O(*n*) per run, in constant stack even when every input's work completes synchronously.
  @inlinable
  public static func all<Input: Sendable>(
    _ inputs: some Collection<Input>, maxConcurrent: Int? = nil,
    _ transform: @escaping @Sendable (Input) -> Promise<T, E>
  ) -> Promise<[T], E> {
    all(
      inputs.map { input in
        Promise(
          _stage: _ValueStage(upstream: _Source<Input, E>.result(.success(input)), owner: nil, .promise(transform)))
      },
      maxConcurrent: maxConcurrent)
  }
}
