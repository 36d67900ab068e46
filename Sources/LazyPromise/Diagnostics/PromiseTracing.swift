// MARK: - Turning tracing on

/// Where tracing is turned on: stages built inside ``withTracer(_:_:)`` report to its tracer.
public enum PromiseTracing {
  /// Builds promises whose stages report to `tracer` each time a run reaches them.
  ///
  /// Tracing is decided when a stage is built, not when it runs: every `then`, `map`, `attemptMap`, `flatMap` and
  /// `tryMap` made inside `body`, on this thread or task, is traced, and stays traced wherever and however often
  /// it runs later; stages made elsewhere are not. An inner `withTracer` replaces the outer one for its body.
  /// While any `withTracer` body runs, building a stage anywhere also reads a task-local value; otherwise it
  /// costs one relaxed atomic load (`Docs/Guides/Tracing.md`).
  ///
  /// ```swift
  /// let lookup = PromiseTracing.withTracer(StageTimer()) {
  ///   fetch(id: 909253).then(decode).then(toModel)
  /// }
  /// let artist = await lookup.result  // each stage reports its start and outcome to StageTimer
  /// ```
  ///
  /// - Parameters:
  ///   - tracer: What the stages built in `body` report to.
  ///   - body: Builds the promises to trace; it runs at once, on the calling thread.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public static func withTracer<R, Failure: Error>(
    _ tracer: some PromiseTracer, _ body: () throws(Failure) -> R
  ) throws(Failure) -> R {
    tracingScopes.add(1, ordering: .relaxed)
    defer { tracingScopes.subtract(1, ordering: .relaxed) }
    var outcome: Result<R, Failure>?
    TracingContext.$current.withValue(tracer) {
      outcome = Result { () throws(Failure) -> R in try body() }
    }
    guard let outcome else { preconditionFailure("Internal inconsistency: withTracer's body did not run") }
    return try outcome.get()
  }
}
