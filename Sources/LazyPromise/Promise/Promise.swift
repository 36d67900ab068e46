/// A lazy, typed-error description of asynchronous work: nothing runs until you call `run`.
///
/// A promise holds a task — a function that takes a completion handler and calls it once with a
/// `Result<T, E>` — and the stages chained after it. Creating and chaining promises runs nothing; each call to
/// `run` runs the whole chain again from the first task. Stages run in order, each on the thread that delivered
/// the result before it: no queue hop is ever added for you.
///
/// ```swift
/// func lookup(id: String) -> Promise<Data, LookupError> { ... }
///
/// lookup(id: "909253")
///   .then(decode)        // Data -> Result<Response, LookupError>
///   .map(\.results)      // Response -> [Artist]
///   .then(pickRock)      // [Artist] -> Result<Artist, LookupError>
///   .run(some: { print($0.artistName) }, none: { print("error:", $0) })
/// ```
///
/// > Important: Running a promise twice runs its work twice. Use `shared()` (or an eager `Future`) when the work
/// > must happen once.
public struct Promise<T, E: Error> {
  /// Receives the result of a run; called exactly once per run unless the run is cancelled.
  public typealias Completion = @Sendable (Result<T, E>) -> Void

  /// The work behind a promise: it must call `completion` exactly once, on any thread.
  public typealias AsyncTask = @Sendable (_ completion: @escaping Completion) -> Void

  /// Registers a handler to run if the run is cancelled while the task is pending (at once if it already was).
  public typealias OnCancel = @Sendable (_ handler: @escaping @Sendable () -> Void) -> Void

  /// Work that can be cancelled: it calls `completion` once, and registers with `onCancel` how to stop early.
  public typealias CancellableTask =
    @Sendable (_ completion: @escaping Completion, _ onCancel: @escaping OnCancel) ->
    Void

  @usableFromInline let _source: _Source<T, E>
  @usableFromInline let _owner: _Stage<T, E>?

  @inlinable
  init(_stage: _Stage<T, E>) {
    _source = .stage(Unmanaged.passUnretained(_stage))
    _owner = _stage
  }

  /// Creates a promise from a task; the task runs each time the promise runs, and never before.
  ///
  /// The task runs on the thread that calls `run`. It may complete synchronously, or later from any thread.
  /// Calling `completion` a second time is a programmer error: the extra result is ignored and, in debug builds,
  /// reported (see ``PromiseDiagnostics``) with the `file` and `line` where this promise was made; so is a
  /// completion handler released without being called.
  ///
  /// ```swift
  /// let answer = Promise<Int, Never> { completion in
  ///   DispatchQueue.global().async { completion(.success(42)) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: Where the promise is made, for diagnostics; leave the default.
  ///   - line: Where the promise is made, for diagnostics; leave the default.
  ///   - task: The work; it must call `completion` exactly once.
  @inlinable
  public init(file: StaticString = #fileID, line: UInt = #line, _ task: @escaping AsyncTask) {
    _source = .task(task, _Site(file: file, line: line))
    _owner = nil
  }

  /// Creates a promise from a task that can be cancelled.
  ///
  /// The task registers with `onCancel` what stops its work; if the run is cancelled while the task is pending,
  /// the handlers run (once, on the cancelling thread) and the task's result, if it still arrives, is ignored.
  ///
  /// ```swift
  /// let lookup = Promise<Data, LookupError> { completion, onCancel in
  ///   let request = client.get(url) { completion($0) }
  ///   onCancel { request.cancel() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: Where the promise is made, for diagnostics; leave the default.
  ///   - line: Where the promise is made, for diagnostics; leave the default.
  ///   - task: The work; it must call `completion` exactly once unless cancelled.
  @inlinable
  public init(file: StaticString = #fileID, line: UInt = #line, _ task: @escaping CancellableTask) {
    self.init(_stage: _CancellableTaskStage(task: task, site: _Site(file: file, line: line)))
  }

  /// Creates a promise that delivers `result` each time it runs.
  ///
  /// The result is stored in the promise itself: making one allocates nothing.
  ///
  /// ```swift
  /// let cached = Promise<Int, LookupError>(result: .success(42))
  /// ```
  ///
  /// - Parameter result: The result every run delivers.
  @inlinable
  public init(result: Result<T, E>) {
    _source = .result(result)
    _owner = nil
  }

  /// Creates a promise that succeeds with `value` each time it runs.
  ///
  /// ```swift
  /// let one = Promise<Int, Never>(value: 1)
  /// ```
  ///
  /// - Parameter value: The value every run delivers.
  @inlinable
  public init(value: T) {
    self.init(result: .success(value))
  }

  /// Creates a promise that fails with `error` each time it runs.
  ///
  /// ```swift
  /// let failed = Promise<Int, LookupError>(error: .notFound)
  /// ```
  ///
  /// - Parameter error: The error every run delivers.
  @inlinable
  public init(error: E) {
    self.init(result: .failure(error))
  }
}

extension Promise where T == Void {
  /// Creates a promise that succeeds with `()` each time it runs: PromiseKit's `Promise()`.
  ///
  /// The error type comes from the context, as for ``init(value:)``; with no context, name it.
  ///
  /// ```swift
  /// let ready = Promise<Void, Never>()
  /// func warmUp() -> Promise<Void, LookupError> { Promise() }
  /// ```
  @inlinable
  public init() {
    self.init(result: .success(()))
  }
}

extension Promise: Sendable where T: Sendable {}
