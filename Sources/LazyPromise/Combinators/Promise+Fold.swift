// MARK: - Folding through asynchronous steps

extension Promise where T: Sendable {
  /// Starting from this promise's value, runs `step` for each element in turn, each step's promise starting once
  /// the one before it has delivered, and delivers the last step's value.
  ///
  /// This is google/promises' `reduce(_:_:)`, an asynchronous fold: the step returns a *promise* of the next
  /// partial value. ``reduce(_:initial:_:)``, a static method, is a different operation: it runs promises made in
  /// advance and folds their values with a synchronous function.
  ///
  /// Lazy: nothing runs until the returned promise runs, and each run runs this promise and every step again. Each
  /// step is called on the thread that delivered the partial value before it (this promise's value for the first
  /// element). The first failure — of this promise or of a step — is delivered at once and no later step is
  /// called. Cancelling the run cancels the step in progress and calls no other. With no elements, the run
  /// delivers this promise's result.
  ///
  /// ```swift
  /// let total = Promise<Int, DownloadError>(value: 0).fold(pages) { bytes, page in
  ///   download(page).map { bytes + $0.count }  // one download at a time
  /// }
  /// total.run(some: { print("\($0) bytes") }, none: report)
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The elements to fold, in this order; read once, when `fold` is called.
  ///   - step: Makes the promise of the next partial value from the partial value so far and the next element.
  ///   - file: Where the fold is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the fold is made, for tracing; leave the default.
  /// - Returns: A promise of the value the last step delivers.
  /// - Complexity: O(*n*) steps per run, in constant stack and memory even when every step completes
  ///   synchronously.
  public func fold<Element: Sendable>(
    _ elements: some Sequence<Element>,
    _ step: @escaping @Sendable (_ partial: T, _ element: Element) -> Promise<T, E>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<T, E> {
    let elements = Array(elements)
    guard !elements.isEmpty else { return self }
    return flatMap({ Self.foldSteps($0, elements, from: 0, step) }, file: file, line: line)
  }

  /// The step at `index`, followed by the rest: a loop written as recursion, which `flatMap` runs in bounded
  /// stack (contract 6.3).
  private static func foldSteps<Element: Sendable>(
    _ partial: T, _ elements: [Element], from index: Int,
    _ step: @escaping @Sendable (T, Element) -> Promise<T, E>
  ) -> Promise<T, E> {
    let next = step(partial, elements[index])
    guard index + 1 < elements.count else { return next }
    return next.flatMap { foldSteps($0, elements, from: index + 1, step) }
  }
}

extension Future where T: Sendable {
  /// Starting from this future's value, runs `step` for each element in turn, each step starting once the future
  /// before it has completed, and completes with the last step's value.
  ///
  /// The eager twin of ``Promise/fold(_:_:file:line:)``: the steps start as soon as the values they need arrive,
  /// whether or not anyone observes the result, and run once. Each step is called on the thread that completed
  /// the future before it. The first failure completes the result at once and no later step is called.
  ///
  /// ```swift
  /// let total = Future<Int, DownloadError>(value: 0).fold(pages) { bytes, page in
  ///   download(page).start().map { bytes + $0.count }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The elements to fold, in this order; read once, when `fold` is called.
  ///   - step: Makes the future of the next partial value from the partial value so far and the next element.
  /// - Returns: A future of the value the last step completes with.
  /// - Complexity: O(*n*) steps, in constant stack even when every step completes synchronously.
  public func fold<Element: Sendable>(
    _ elements: some Sequence<Element>,
    _ step: @escaping @Sendable (_ partial: T, _ element: Element) -> Future<T, E>
  ) -> Future<T, E> {
    _forwarded { $0.fold(elements) { partial, element in step(partial, element).promise } }
  }
}
