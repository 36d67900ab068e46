// MARK: - The first to finish

extension Promise where T: Sendable {
  /// Combines promises into one that delivers the first result to arrive, value or error.
  ///
  /// Nothing starts until the combined promise runs; a run starts every input, in order, on the calling thread,
  /// delivers the first result on the thread that delivered it, and cancels the other inputs (the losers).
  /// Cancelling the combined run cancels every input.
  ///
  /// ```swift
  /// let fastest = Promise.race(lookup(on: primary), lookup(on: mirror))
  /// fastest.run { print($0) }  // whichever answered first; the other lookup is cancelled
  /// ```
  ///
  /// - Parameters:
  ///   - first: An input; with no `others`, the race is this promise.
  ///   - others: The other inputs.
  /// - Returns: A promise of the first result.
  @inlinable
  public static func race(_ first: Promise<T, E>, _ others: Promise<T, E>...) -> Promise<T, E> {
    _Gather.promise([first] + others, rule: .first) { decisive, _ in
      guard let decisive else { fatalError("Internal inconsistency: a race of one or more had no winner") }
      return decisive
    }
  }

  /// Combines an array of promises into one that delivers the first result to arrive; `nil` for no inputs.
  ///
  /// As ``race(_:_:)``: a run starts every input and delivers the first result, cancelling the losers. An empty
  /// array has no first result, so a run succeeds with `nil` at once — it never waits forever.
  ///
  /// ```swift
  /// Promise.race(mirrors.map(lookup)).run(some: { artist in
  ///   print(artist?.artistName ?? "no mirrors configured")
  /// }, none: { print("the fastest mirror failed: \($0)") })
  /// ```
  ///
  /// - Parameter promises: The inputs.
  /// - Returns: A promise of the first result's value (`nil` when `promises` is empty), or of its error.
  @inlinable
  public static func race(_ promises: [Promise<T, E>]) -> Promise<T?, E> {
    _Gather.promise(promises, rule: .first) { decisive, _ in
      decisive.map { $0.map(Optional.some) } ?? .success(nil)
    }
  }

  /// Combines promises into one that delivers the first value to arrive, failing only when every input fails.
  ///
  /// Nothing starts until the combined promise runs; a run starts every input, in order, on the calling thread.
  /// The first success is delivered at once and the other inputs are cancelled. If every input fails, the run
  /// fails with all their errors, in input order; with no inputs it fails at once with no errors.
  ///
  /// ```swift
  /// Promise.any(mirrors.map(lookup)).run(some: { show($0) }, none: { failure in
  ///   print("all \(failure.errors.count) mirrors failed")
  /// })
  /// ```
  ///
  /// - Parameter promises: The inputs.
  /// - Returns: A promise of the first value, or of every input's error.
  @inlinable
  public static func any(_ promises: [Promise<T, E>]) -> Promise<T, AllFailedError<E>> {
    _Gather.promise(promises, rule: .firstSuccess) { decisive, results in
      if case .success(let value)? = decisive { return .success(value) }
      return .failure(AllFailedError(errors: results.map(_failureError)))
    }
  }
}

/// The error of ``Promise/any(_:)`` when no input succeeded: every input's error, in input order.
///
/// ```swift
/// if case .failure(let failure) = result {
///   for error in failure.errors { log(error) }
/// }
/// ```
public struct AllFailedError<E: Error>: Error {
  /// Every input's error, in input order; empty when there were no inputs.
  public var errors: [E]

  /// Creates the error from the inputs' errors.
  ///
  /// ```swift
  /// let failure = AllFailedError(errors: [LookupError.notFound, .timedOut])
  /// ```
  ///
  /// - Parameter errors: Every input's error, in input order.
  public init(errors: [E]) {
    self.errors = errors
  }
}

extension AllFailedError: Equatable where E: Equatable {}
