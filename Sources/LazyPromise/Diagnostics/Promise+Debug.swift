// MARK: - Logging a promise's runs

extension Promise {
  /// Prints each run's events at this point of the chain: when it starts, and how it ends.
  ///
  /// Each run of the returned promise writes, through `printer`, one line when it reaches this point and starts
  /// the chain before it (`lookup: started`), then one line with how that part of the run ended:
  /// `lookup: succeeded: <value>`, `lookup: failed: <error>`, or — if the run is stopped while waiting —
  /// `lookup: cancelled` (``RunHandle/cancel()``) or `lookup: interrupted` (an awaiting Swift task was cancelled
  /// and the work was asked to finish early; its result follows). The lines are written on the thread the event
  /// happens on. The result passes through unchanged, and nothing is written until the promise runs.
  ///
  /// ```swift
  /// lookup(id: "909253").debug("lookup").then(decode).run { _ in }
  /// // lookup: started
  /// // lookup: succeeded: 1374 bytes
  /// ```
  ///
  /// To see every stage of a chain rather than one point, trace it (`Docs/Guides/Tracing.md`).
  ///
  /// - Parameters:
  ///   - label: What each line starts with.
  ///   - printer: Writes one line; `print` by default. Pass a logger's method to log instead.
  /// - Returns: A promise with the same result, whose runs are written out.
  public func debug(
    _ label: String, printer: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Promise<T, E> {
    operatorStage { upstream, run, completion in
      printer("\(label): started")
      let child = RunHandle()
      run.onStop { mode in
        printer("\(label): \(mode == .cancel ? "cancelled" : "interrupted")")
        child.stop(mode)
      }
      upstream._run(under: child) { result in
        printer("\(label): \(describeOutcome(result))")
        completion(result)
      }
    }
  }
}

extension Future {
  /// Prints the future's state now, and how it ends when it completes.
  ///
  /// Writes, through `printer`, `lookup: pending` at once if the future is pending, then — on the thread that
  /// completes it, or at once if it already has — `lookup: succeeded: <value>`, `lookup: failed: <error>` or
  /// `lookup: cancelled` (when ``cancel()-3bxh5`` completed it).
  ///
  /// ```swift
  /// let artist = lookup(id: "909253").start().debug("artist")
  /// // artist: pending
  /// // artist: succeeded: Artist(artistName: "Jack Johnson")
  /// ```
  ///
  /// - Parameters:
  ///   - label: What each line starts with.
  ///   - printer: Writes one line; `print` by default.
  /// - Returns: A future with the same result, completed after the line is written.
  public func debug(
    _ label: String, printer: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Future<T, E> {
    if result == nil { printer("\(label): pending") }
    // Weak: an observer holding its own future would keep a future that never completes alive. Unsafe only to the
    // checker (`T` need not be `Sendable`): the closure reads `isCancelled`, an atomic load.
    nonisolated(unsafe) weak let future = self
    return always { result in
      printer("\(label): \(future?.isCancelled == true ? "cancelled" : describeOutcome(result))")
    }
  }
}

/// `succeeded: <value>` or `failed: <error>`.
private func describeOutcome<T, E>(_ result: Result<T, E>) -> String {
  switch result {
  case .success(let value): "succeeded: \(value)"
  case .failure(let error): "failed: \(error)"
  }
}
