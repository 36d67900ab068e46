// MARK: - Chaining values

extension Promise {
  /// Chains the next step: an inline closure producing a value, a `Result<U, E>` or a `Promise<U, E>`, or a
  /// function returning a `Result<U, E>` or a `Promise<U, E>`. A failure skips the rest of the chain.
  ///
  /// Use it for the stages that can fail or go on asynchronously, and for named functions; write a plain
  /// transform with ``map(_:file:line:)`` (`.map { $0 * 2 }`, `.map(\.count)`), which leaves the type checker
  /// nothing to weigh, in `async` functions too. A function that throws goes through ``tryMap(_:file:line:)``.
  ///
  /// A closure written without `return` is built by ``ThenBuilder``: a plain value continues the chain, a
  /// `Result` continues or fails, a `Promise` runs and its result continues. Its body is type-checked on its own,
  /// so chains of inline closures stay fast to compile (the limits, such as `async` functions, are in
  /// `Docs/Troubleshooting.md`). The function runs on the thread that
  /// delivered the value, when the promise runs — never before; a promise it returns runs at once.
  ///
  /// ```swift
  /// let albums = user(id: 1)
  ///   .map(\.id)                                          // a plain value: map
  ///   .then { $0 > 0 ? .success($0) : .failure(.badID) }  // a Result
  ///   .then { id in albums(ofUser: id) }                  // a Promise
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next value, result or promise.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the next value, with the same error type.
  @inlinable @inline(__always)
  public func then<Step: ThenStep>(
    @ThenBuilder<E> _ transform: @escaping @Sendable (T) -> Step, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<Step.Success, E> where Step.Failure == E {
    if _slowPath(_isTracing()), let traced = _tracedThen(transform, .then, file, line) {
      return traced
    }
    return Promise<Step.Success, E>(_stage: _stepStage(upstream: self, transform: transform))
  }

  /// Chains a function of the value: `T -> U`. Skipped when an earlier stage failed.
  ///
  /// It serves function references and key paths (`then(toModel)`, `then(\.count)`) and closures with `return`
  /// and an explicit result type; an inline closure without `return` goes to the ``ThenBuilder`` overload, which
  /// produces the same stage. The function runs on the thread that delivered the value, when the promise runs.
  ///
  /// A named function reads well here (`.then(decode).then(toModel).then(pickRock)`). For a key path or an
  /// inline closure with `return`, prefer ``map(_:file:line:)``: the type checker weighs both `then` overloads at
  /// such a stage, and a chain with several of them can take seconds to type-check (`Docs/Troubleshooting.md`,
  /// "The first chain").
  ///
  /// ```swift
  /// func describe(_ count: Int) -> String { "\(count) items" }
  /// let text = Promise<Int, Never>(value: 3).then(describe)
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the transformed value, with the same error type.
  @inlinable @inline(__always) @_disfavoredOverload
  public func then<U>(
    _ transform: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    _reportNestedStep(U.self, file: file, line: line)
    if _slowPath(_isTracing()), let traced = _traced(.value(transform), .then, file, line) {
      return traced
    }
    return Promise<U, E>(_stage: _valueStage(upstream: self, .value(transform)))
  }

  /// A closure with `return` statements that returns `.success(...)` or `.failure(...)` without a written result
  /// type: not a chain step until the result type is written.
  ///
  /// Only a diagnostic: the type checker never picks an unavailable overload for code that compiles, and it keeps
  /// chains of `Result`-returning functions linear to type-check (the `Result` shape goes to the ``ThenStep``
  /// overload). Write the result type, or use ``attemptMap(_:file:line:)``:
  ///
  /// ```swift
  /// promise.then { x -> Result<Int, RangeError> in
  ///   if x < 0 { return .failure(.negative) }
  ///   return .success(x + 1)
  /// }
  /// ```
  @available(
    *, unavailable,
    message:
      "write the closure's result type ('x -> Result<U, E> in') or use attemptMap, so that .success/.failure have a type"
  )
  public func then<U>(_ transform: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> {
    fatalError("unavailable")
  }

  /// Transforms the value: the spelling to use for a plain `T -> U` stage — an inline closure, with or without
  /// `return`, a key path or a function.
  ///
  /// It is one declaration, so the type checker has nothing to weigh: chains of `map` stages type-check as fast
  /// as the same chain on `Swift.Result`, in synchronous and `async` functions alike. The function runs on the
  /// thread that delivered the value, when the promise runs. A function that throws goes through
  /// ``tryMap(_:file:line:)``.
  ///
  /// ```swift
  /// let doubled = Promise<Int, Never>(value: 21).map { $0 * 2 }
  /// let count = Promise<[Int], Never>(value: [1, 2]).map(\.count)
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the transformed value.
  @inlinable @inline(__always)
  public func map<U>(
    _ transform: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    if _slowPath(_isTracing()), let traced = _traced(.value(transform), .map, file, line) {
      return traced
    }
    return Promise<U, E>(_stage: _valueStage(upstream: self, .value(transform)))
  }

  /// Transforms the value with a function that can fail: the unambiguous spelling of `then` with a
  /// `T -> Result<U, E>` function. A `.failure` skips the rest of the chain.
  ///
  /// Prefer it to `then` for unannotated inline closures that build a `Result`: it has one overload, so the
  /// type checker never has to choose (see `Docs/Troubleshooting.md`).
  ///
  /// ```swift
  /// let checked = Promise<Int, RangeError>(value: 3).attemptMap { $0 < 0 ? .failure(.negative) : .success($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one, or into the typed error that ends the chain.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the transformed value.
  @inlinable @inline(__always)
  public func attemptMap<U>(
    _ transform: @escaping @Sendable (T) -> Result<U, E>, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    _attemptMap(transform, kind: .attemptMap, file: file, line: line)
  }

  /// Continues with more asynchronous work: the unambiguous spelling of `then` with a `T -> Promise<U, E>`
  /// function.
  ///
  /// ```swift
  /// let photos = album(id: 1).flatMap { album in photos(in: album) }
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the promise that continues the chain.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the inner promise's value.
  @inlinable @inline(__always)
  public func flatMap<U>(
    _ transform: @escaping @Sendable (T) -> Promise<U, E>, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    if _slowPath(_isTracing()), let traced = _traced(.promise(transform), .flatMap, file, line) {
      return traced
    }
    return Promise<U, E>(_stage: _valueStage(upstream: self, .promise(transform)))
  }

  /// `attemptMap` as `tryMap` uses it too: traced as `kind`, made at `file`:`line`.
  @inlinable @inline(__always)
  func _attemptMap<U>(
    _ transform: @escaping @Sendable (T) -> Result<U, E>, kind: PromiseStage.Kind, file: StaticString, line: UInt
  ) -> Promise<U, E> {
    if _slowPath(_isTracing()), let traced = _traced(.result(transform), kind, file, line) {
      return traced
    }
    return Promise<U, E>(_stage: _valueStage(upstream: self, .result(transform)))
  }
}
