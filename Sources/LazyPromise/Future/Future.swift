import Synchronization

/// An eager, typed-error result that arrives once and is kept: the work behind it has already started.
///
/// A future is the eager counterpart of ``Promise``. It is made pending with its writer side
/// (``makePending(file:line:)``), or started from a task at once
/// (``init(file:line:_:)-(_,_,(Future<T,E>.Completion)->Void)``), or converted from a promise with
/// ``Promise/start()``. It completes once; a second completion is ignored (and reported in debug builds, see
/// ``PromiseDiagnostics``). Any number of observers receive the result exactly once each: an
/// observer registered before completion runs on the thread that completes the future, one registered after runs
/// at once on the registering thread. Observers registered from one thread run in registration order.
///
/// A future is lock-free: no observer ever runs under a lock, so an observer may observe, complete or read the
/// same future. Observers are released as soon as they have run.
///
/// When its error type can say "cancelled" (``CancellationRepresentable``, or `any Error`), a pending future can be
/// cancelled: ``cancel()-3bxh5`` stops its work and fails every observer with `.cancelled`.
///
/// ```swift
/// let (artist, resolver) = Future<Artist, LookupError>.makePending()
/// artist.observe { print($0) }
/// artist.map(\.artistName).observe { print($0) }
/// resolver.resolve(Artist(artistName: "Queen"))  // both observers run now, on this thread
/// ```
///
/// > Important: A future does its work once, whether or not anyone observes it; a promise does its work on every
/// > `run` and never before. See `Docs/Guides/EagerAndLazy.md`.
public final class Future<T, E: Error>: _FutureResultSlot<Result<T, E>?> {
  /// Receives a future's result: an observer, or the completion handler a task is given.
  public typealias Completion = @Sendable (Result<T, E>) -> Void

  @usableFromInline let _state: _FutureStateMachine
  /// The table of the runs of `promise` waiting for the result (`PendingRuns`), or 0 until a run first waits.
  @usableFromInline let _pendingRuns: Atomic<UInt>

  @inlinable
  init(_pending: ()) {
    _state = _FutureStateMachine(completed: false)
    _pendingRuns = Atomic(0)
    super.init(_result: nil)
  }

  /// Creates a future that is already completed with `result`.
  ///
  /// Observers of a completed future run at once, on the thread that registers them.
  ///
  /// ```swift
  /// let cached = Future<Int, LookupError>(result: .success(42))
  /// ```
  ///
  /// - Parameter result: The result the future keeps.
  @inlinable
  public init(result: Result<T, E>) {
    _state = _FutureStateMachine(completed: true)
    _pendingRuns = Atomic(0)
    super.init(_result: result)
  }

  /// Creates a future that has already succeeded with `value`.
  ///
  /// ```swift
  /// let one = Future<Int, Never>(value: 1)
  /// ```
  ///
  /// - Parameter value: The value the future keeps.
  @inlinable
  public convenience init(value: T) {
    self.init(result: .success(value))
  }

  /// Creates a future that has already failed with `error`.
  ///
  /// ```swift
  /// let failed = Future<Int, LookupError>(error: .notFound)
  /// ```
  ///
  /// - Parameter error: The error the future keeps.
  @inlinable
  public convenience init(error: E) {
    self.init(result: .failure(error))
  }

  /// Starts `task` now and returns the future of its result.
  ///
  /// The task runs once, synchronously, on the calling thread before the initializer returns; it may call
  /// `completion` at once or later from any thread. A second call is ignored and, in debug builds, reported
  /// with the `file` and `line` where the future was made.
  ///
  /// ```swift
  /// let answer = Future<Int, Never> { completion in
  ///   DispatchQueue.global().async { completion(.success(42)) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: Where the future is made, for diagnostics; leave the default.
  ///   - line: Where the future is made, for diagnostics; leave the default.
  ///   - task: The work; it must call `completion` exactly once.
  @inlinable
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line, _ task: (_ completion: @escaping Completion) -> Void
  ) {
    self.init(_pending: ())
    // Unsafe only to the checker (`T` need not be `Sendable`): a resolver completes its future through the future's
    // atomic state word, from any thread.
    nonisolated(unsafe) let resolver = Resolver(_future: self, _site: _Site(file: file, line: line))
    task { resolver.complete($0) }
  }

  deinit {
    releasePendingRuns()
    releaseWork()
    let stack = _state.takePendingStack()
    if stack != 0 { _FutureNodeList.release(stack: stack) }
  }

  /// The result, or `nil` while the future is pending.
  ///
  /// Reading never blocks and never runs an observer.
  ///
  /// ```swift
  /// if case .success(let artist)? = lookup.result { show(artist) }
  /// ```
  public var result: Result<T, E>? {
    _state.isCompleted ? _result : nil
  }

  /// Registers `callback` to receive the result exactly once.
  ///
  /// If the future is pending, `callback` runs later on the thread that completes it, after the observers
  /// registered before it; if it is completed, `callback` runs now, on the calling thread. No lock is held
  /// while it runs, and the future lets go of it once it has run.
  ///
  /// ```swift
  /// lookup.observe { result in
  ///   if case .success(let artist) = result { print(artist.artistName) }
  /// }
  /// ```
  ///
  /// - Parameter callback: Receives the result.
  @inlinable
  public func observe(_ callback: @escaping Completion) {
    if _state.isCompleted {
      let result = _storedResult
      _hop({ callback(result) }, { { callback(result) } })
    } else {
      _register(_FutureCallback(callback))
    }
  }
}

extension Future: @unchecked Sendable where T: Sendable {}
