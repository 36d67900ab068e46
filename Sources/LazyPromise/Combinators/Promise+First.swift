// MARK: - The first value that matches

extension Promise where T: Sendable {
  /// Runs promises side by side and delivers the first value to arrive that `predicate` accepts.
  ///
  /// Lazy like every combinator (contract 15): nothing starts until the combined promise runs, and each run
  /// starts every input again, in order, on the calling thread. `predicate` runs once per value, on the thread
  /// that delivered it. The first accepted value is delivered at once and the other inputs are cancelled. A
  /// failure or a rejected value does not end the search; when every input has delivered without an accepted
  /// value, the run fails with the first failure in input order, or succeeds with `nil` if none failed — so an
  /// error is never hidden behind `nil`. Cancelling the run cancels every running input. With no inputs, a run
  /// succeeds with `nil` at once.
  ///
  /// ```swift
  /// let mirror = Promise.first(of: mirrors.map(ping), where: { $0.latency < .milliseconds(50) })
  /// mirror.run(some: { print($0?.host ?? "no fast mirror") }, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - promises: The inputs, started in this order.
  ///   - predicate: Says whether a value is the one to deliver.
  /// - Returns: A promise of the first accepted value, `nil` when every input succeeded and none was accepted.
  @inlinable
  public static func first(
    of promises: [Promise<T, E>], where predicate: @escaping @Sendable (T) -> Bool
  ) -> Promise<T?, E> {
    let candidates = promises.map { promise in
      Promise<T?, E>(_stage: _valueStage(upstream: promise, .value { value in predicate(value) ? value : nil }))
    }
    let accepted: @Sendable (Result<T?, E>) -> Bool = { result in
      if case .success(.some) = result { true } else { false }
    }
    return _Gather.promise(candidates, rule: .firstWhere(accepted)) { decisive, results in
      if case .success(let value?)? = decisive { return .success(value) }
      for case .failure(let error)? in results { return .failure(error) }
      return .success(nil)
    }
  }
}
