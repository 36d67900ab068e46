// MARK: - Choosing threads

extension Promise {
  /// Delivers this stage's result — value or error — on `scheduler`, so the rest of the chain and the run's
  /// handlers run there.
  ///
  /// Without it every stage runs on the thread that delivered the result before it. The hop happens on each run,
  /// when this stage is reached; a run cancelled before the hop runs nothing more.
  ///
  /// ```swift
  /// lookup(id: "909253")
  ///   .then(decode)                    // on URLSession's delegate queue
  ///   .receive(on: DispatchQueue.main)
  ///   .run(some: { label.text = $0.artistName }, none: showError)  // on the main queue
  /// ```
  ///
  /// > Important: In a command-line program the main queue runs only under `dispatchMain()` or inside an `async`
  /// > `main`; a run delivered on `DispatchQueue.main` from a program that simply returns never delivers.
  ///
  /// - Parameter scheduler: Where the rest of the chain runs, e.g. `DispatchQueue.main`.
  /// - Returns: A promise with the same result, delivered on `scheduler`.
  public func receive(on scheduler: some PromiseScheduler) -> Promise<T, E> {
    Promise(_stage: _SchedulerStage(upstream: self, scheduler: scheduler, hop: .deliver))
  }

  /// Starts this promise's work on `scheduler` instead of on the thread that calls `run` — the counterpart of
  /// ``receive(on:)``, named as in Combine.
  ///
  /// Nothing starts when you call it: on each run, the first task of the chain (and every synchronous stage up to
  /// the first asynchronous one) runs on `scheduler`; later stages run where results are delivered, as usual. A
  /// run cancelled before the work starts starts nothing. (`start()` is different: it runs the promise now and
  /// returns a `Future`.)
  ///
  /// ```swift
  /// let digest = Promise<Digest, Never> { completion in completion(.success(sha256(hugeFile))) }
  ///   .subscribe(on: DispatchQueue.global())
  ///   .receive(on: DispatchQueue.main)
  /// digest.run(some: show)  // hashes off the main thread, shows on it
  /// ```
  ///
  /// - Parameter scheduler: Where the work starts.
  /// - Returns: The same promise, started on `scheduler` on each run.
  public func subscribe(on scheduler: some PromiseScheduler) -> Promise<T, E> {
    Promise(_stage: _SchedulerStage(upstream: self, scheduler: scheduler, hop: .start))
  }
}
