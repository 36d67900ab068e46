// MARK: - Waiting for all

extension Promise where T: Sendable {
  /// Combines promises into one that delivers all their values, in input order, or the first error.
  ///
  /// Lazy like every promise: nothing starts until the combined promise runs, and each run runs the inputs
  /// again. A run starts the inputs in order on the calling thread — all at once, or at most `maxConcurrent` at
  /// a time, starting the next as each one succeeds. The first failure is delivered at once; the inputs still
  /// running are cancelled and the rest never start. Cancelling the combined run cancels the running inputs.
  /// With no inputs, a run succeeds with `[]` at once.
  ///
  /// ```swift
  /// let pages = Promise.all(urls.map(download), maxConcurrent: 4)
  /// pages.run { result in print(result) }  // success([page0, page1, ...]) or the first failure
  /// ```
  ///
  /// - Parameters:
  ///   - promises: The inputs; their values are delivered in this order, whatever order they finish in.
  ///   - maxConcurrent: How many inputs may run at once; `nil` (the default) starts them all. Values below 1
  ///     count as 1.
  /// - Returns: A promise of every input's value.
  /// - Complexity: O(*n*) per run, in constant stack even when every input completes synchronously.
  @inlinable
  public static func all(_ promises: [Promise<T, E>], maxConcurrent: Int? = nil) -> Promise<[T], E> {
    _Gather.promise(promises, rule: .allSucceed, limit: maxConcurrent) { decisive, results in
      if case .failure(let error)? = decisive { return .failure(error) }
      return .success(results.map(_successValue))
    }
  }

  /// Combines promises into one that waits for every input and delivers every result, in input order.
  ///
  /// The combined promise cannot fail: each input's failure is one of its results. Inputs start when the
  /// combined promise runs, in order, all at once or at most `maxConcurrent` at a time. Cancelling the combined
  /// run cancels the running inputs. With no inputs, a run succeeds with `[]` at once.
  ///
  /// ```swift
  /// Promise.allSettled(mirrors.map(ping)).run(some: { results in
  ///   let reachable = results.filter { (try? $0.get()) != nil }.count
  ///   print("\(reachable) of \(results.count) mirrors answered")
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - promises: The inputs; their results are delivered in this order.
  ///   - maxConcurrent: How many inputs may run at once; `nil` (the default) starts them all. Values below 1
  ///     count as 1.
  /// - Returns: A promise of every input's result.
  @inlinable
  public static func allSettled(
    _ promises: [Promise<T, E>], maxConcurrent: Int? = nil
  ) -> Promise<[Result<T, E>], Never> {
    _Gather.promise(promises, rule: .allSettle, limit: maxConcurrent) { _, results in
      .success(results.map(_settledResult))
    }
  }
}
