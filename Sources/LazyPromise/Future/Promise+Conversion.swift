// MARK: - Lazy to eager

extension Promise {
  /// Runs the promise now and returns the future of this run's result.
  ///
  /// The work starts on the calling thread before `start()` returns; the future completes on the thread that
  /// delivers the result. Every call starts another run; the future keeps its run's result for all observers.
  /// The future owns the run: cancelling it (``Future/cancel()-3bxh5``, where `E` can say "cancelled") cancels
  /// the run, whose pending task's cancel handlers run. Otherwise the run goes on whether or not anyone observes it.
  ///
  /// ```swift
  /// let artist = lookup(id: "909253").start()  // the request is under way
  /// artist.observe { print($0) }
  /// artist.observe { log($0) }                 // the same result; no second request
  /// ```
  ///
  /// - Returns: The future of this run.
  public func start() -> Future<T, E> {
    _start(now: false)
  }

  /// `start()`; with `now`, the run starts at once even while this thread holds queued work (`Future._forwarded`,
  /// whose run only registers an observer, which must take its place among the future's observers now).
  @usableFromInline
  func _start(now: Bool) -> Future<T, E> {
    let future = Future<T, E>(_pending: ())
    nonisolated(unsafe) let target = future  // a future is thread-safe; `T` need not be `Sendable` to run
    let deliver: Completion = { result in target._trySettle(result)?.run() }
    let handle = now ? _runNow(RunHandle(), deliver) : run(deliver)
    if !future._state.isCompleted { future.attachWork(handle) }  // what `cancel()` stops
    return future
  }

  /// A promise whose work runs once — on its first run — and whose result every run receives.
  ///
  /// Nothing runs until the first `run` of the returned promise (or of a copy of it). That run starts this
  /// promise's work; every run, concurrent or later, receives the same result, on the thread that delivers it
  /// or, once it is kept, at once on the thread that calls `run`. Failures are kept too: to try again, call
  /// `shared()` again on the original promise.
  ///
  /// The runs waiting for the work are counted. Cancelling one run stops only that run's delivery while others
  /// wait; cancelling the last one cancels the work (its pending task's cancel handlers run) and keeps nothing, so
  /// the next run starts the work anew. Runs that have delivered no longer count, and once the work has delivered
  /// there is nothing left to cancel. An interrupted run (an awaiting Swift task cancelled, for an `E` that cannot
  /// say "cancelled") keeps waiting, and counts.
  ///
  /// ```swift
  /// let config = download(configURL).then(decode).shared()
  /// config.run { print($0) }  // downloads
  /// config.run { print($0) }  // the same result, no second download
  ///
  /// let handle = download(otherURL).shared().run { print($0) }  // downloads
  /// handle.cancel()  // the only run: the download is cancelled
  /// ```
  ///
  /// - Returns: A lazy promise memoizing this one's first run.
  public func shared() -> Promise<T, E> {
    let work = SharedWork(self)
    return Promise(_combinator: { run, completion in work.run(run, completion: completion) })
  }
}

// MARK: - Eager to lazy

extension Future {
  /// A lazy view of the future: each run delivers the future's result.
  ///
  /// Running it starts no work — the future's work has already started. A run delivers at once if the future is
  /// completed, otherwise on the thread that completes it. Cancelling a run drops that run's delivery and releases
  /// what the run holds at once, even while the future stays pending.
  ///
  /// ```swift
  /// let artist: Future<Artist, LookupError> = cache.artist(id)
  /// artist.promise.map(\.artistName).run { print($0) }
  /// ```
  @inlinable
  public var promise: Promise<T, E> {
    // A completed future's result never changes, so its view is that result, known: a run of it then touches
    // nothing shared. Through the view's stage, the segment after it would wait, and its waiter would retain that
    // segment's last stage, shared by every run, on each run (Docs/Proposals/0004-shared-stages.md).
    if _state.isCompleted { return Promise(result: _storedResult) }
    return Promise(_stage: _FutureViewStage(self))
  }
}
