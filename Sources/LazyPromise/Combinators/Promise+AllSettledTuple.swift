// MARK: - Settling promises of different types

/// Runs two or more promises of any value and error types together and delivers every outcome, as a tuple of
/// `Result`s, once all have delivered. It cannot fail: a failure is one of the outcomes.
///
/// The heterogeneous twin of `Promise.allSettled(_:maxConcurrent:)`. Lazy like every promise: nothing starts until
/// it runs, and each run runs the inputs again, started in argument order on the calling thread; the tuple is
/// delivered on the thread that delivered the last outcome. Cancelling the run cancels every input still running.
///
/// ```swift
/// allSettled(user(id: 1), avatar(of: 1), badges(of: 1))   // different value and error types
///   .run(some: { user, avatar, badges in
///     show(user, avatar: try? avatar.get(), badges: (try? badges.get()) ?? [])
///   })
/// ```
///
/// - Parameters:
///   - first: The first input.
///   - second: The second input.
///   - rest: Any further inputs, of any value and error types.
/// - Returns: A promise of every input's result, in argument order.
public func allSettled<A: Sendable, EA: Error, B: Sendable, EB: Error, each C: Sendable, each EC: Error>(
  _ first: Promise<A, EA>, _ second: Promise<B, EB>, _ rest: repeat Promise<each C, each EC>
) -> Promise<(Result<A, EA>, Result<B, EB>, repeat Result<each C, each EC>), Never> {
  zip(first.asSettled(), second.asSettled(), repeat (each rest).asSettled())
}
