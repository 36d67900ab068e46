/// An error type that can say "cancelled": awaiting a promise that fails with it ends at once when the awaiting
/// Swift task is cancelled.
///
/// Swift's own `CancellationError` adopts it. Adopt it in your error type to let `await promise.value` answer
/// task cancellation immediately with a typed error, instead of waiting for the work to wind down.
///
/// ```swift
/// enum LookupError: Error, CancellationRepresentable {
///   case notFound
///   case cancelled  // an enum case satisfies the requirement
/// }
/// ```
public protocol CancellationRepresentable: Error {
  /// The error that means "the awaiting task was cancelled".
  static var cancelled: Self { get }
}

extension CancellationError: CancellationRepresentable {
  /// A `CancellationError`.
  ///
  /// ```swift
  /// let promise = Promise<Int, CancellationError>(value: 1)  // `await promise.value` throws one on cancellation
  /// ```
  public static var cancelled: CancellationError { CancellationError() }
}

// MARK: - Awaiting a promise

extension Promise where T: Sendable {
  /// Runs the promise and waits for its value, throwing its error with its own type.
  ///
  /// Each `await` is one run. The getter is `nonisolated`: the work starts on Swift's global concurrent executor
  /// (not on the caller's actor) and continues wherever it delivers; the value then returns to the caller.
  ///
  /// What cancelling the awaiting task does depends on whether `E` can say "cancelled", and follows the type `E`
  /// is at run time (in generic code too), not the way the call was written:
  /// - `E` is ``CancellationRepresentable`` (or `any Error`): the run is cancelled (its pending task's cancel
  ///   handlers run, nothing more starts) and the `await` throws `E.cancelled` (a `CancellationError`) at once. If
  ///   the task was cancelled before the `await`, the work never starts.
  /// - Any other `E`: cancellation is forwarded cooperatively, as in Swift's own async functions: the pending
  ///   task's cancel handlers run (and so do those of every later task of the run, at once), and the `await` ends
  ///   with whatever the work then delivers.
  ///
  /// ```swift
  /// let artist = try await lookup(id: "909253").then(decode).value  // throws(LookupError)
  /// ```
  ///
  /// > Important: Cancelling the awaiting `Task` does **not** end this `await` early when `E` is a plain error
  /// > enum: the `await` lasts until the work delivers, and then returns its value (a cancelled `Task` awaiting a
  /// > 2-second request gets the value 2 seconds later). To end the `await` at once with an error, add a case
  /// > `cancelled` to `E` and conform it to ``CancellationRepresentable`` (or use `CancellationError` as `E`).
  /// > A cancel handler that stops work without completing it (invalidating a timer, say) leaves this `await`
  /// > waiting; complete the task from the handler, or adopt ``CancellationRepresentable``.
  public var value: T {
    get async throws(E) {
      try await awaitResult(endingWith: cancelledError(E.self)).get()
    }
  }

  /// Runs the promise and waits for its result, value or typed error.
  ///
  /// Threads and cancellation are as for ``value-4lbpc``: for an `E` that can say "cancelled", a cancelled task gets
  /// `.failure(.cancelled)` (or `.failure(CancellationError())`) at once.
  ///
  /// ```swift
  /// switch await lookup(id: "909253").result {
  /// case .success(let artist): print(artist.artistName)
  /// case .failure(let error): print("error:", error)
  /// }
  /// ```
  public var result: Result<T, E> {
    get async { await awaitResult(endingWith: cancelledError(E.self)) }
  }
}

/// The error that says "cancelled" in `E`, if it has one: `E.cancelled` for a ``CancellationRepresentable`` type,
/// a `CancellationError` for `any Error`, `nil` for any other type.
///
/// Decided at run time, so that one `value` serves every error type: with an overload per kind of error type,
/// `try? await p.mapError { _ in MyError.x }.value` was inferred as `any Error` (the more specific overload) and
/// ended on cancellation where a `MyError` chain waits.
func cancelledError<E: Error>(_: E.Type) -> E? {
  if let representable = E.self as? any CancellationRepresentable.Type {
    return representable.cancelled as? E
  }
  return E.self == (any Error).self ? CancellationError() as? E : nil
}

extension Promise where T: Sendable, E == Never {
  /// Runs a promise that cannot fail and waits for its value; nothing to `try`.
  ///
  /// Cancelling the awaiting task is forwarded cooperatively (the run's cancel handlers run) and the `await` ends
  /// with the value the work then delivers: a `Never` promise has no other way to end. The library's `delay`
  /// delivers its value at once when interrupted this way.
  ///
  /// ```swift
  /// let count: Int = await Promise<[Int], Never>(value: [1, 2, 3]).map(\.count).value
  /// ```
  public var value: T {
    get async {
      switch await awaitResult(endingWith: nil) {
      case .success(let value): value
      }
    }
  }
}

// MARK: - Promises of async work

extension Promise where T: Sendable {
  /// Creates a promise of async work: each run starts a new `Task` that runs `operation`.
  ///
  /// Nothing starts until the promise runs. The task runs on the global concurrent executor (or the actor
  /// `operation` is isolated to), and the result is delivered from it. Cancelling the run cancels the task;
  /// a cancelled run ignores what the task then returns.
  ///
  /// ```swift
  /// let profile = Promise { () throws(APIError) in try await api.profile(id: 42) }
  /// profile.map(\.name).run(some: show, none: report)  // the request starts here
  /// ```
  ///
  /// Say the error type in the closure, as above, or pass a function (`Promise(operation: api.currentProfile)`):
  /// Swift 6 infers `throws(any Error)` for a closure containing `try`, whatever the context asks for.
  ///
  /// - Parameters:
  ///   - file: Where the promise is made, for diagnostics; leave the default.
  ///   - line: Where the promise is made, for diagnostics; leave the default.
  ///   - operation: The async work; its error type is the promise's.
  public init(
    file: StaticString = #fileID, line: UInt = #line, operation: @escaping @Sendable () async throws(E) -> T
  ) {
    self.init(file: file, line: line) { completion, onCancel in
      let task = Task {
        do throws(E) {
          completion(.success(try await operation()))
        } catch {
          completion(.failure(error))
        }
      }
      onCancel { task.cancel() }
    }
  }
}
