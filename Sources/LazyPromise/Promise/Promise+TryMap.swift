// MARK: - Chaining throwing work

extension Promise {
  /// Transforms the value with a function that throws the chain's error type: a thrown `E` skips the rest of the
  /// chain, as a `.failure` does.
  ///
  /// Use it with functions declared `throws(E)`. A closure does not take its thrown type from context in
  /// Swift 6.3, so an inline closure that throws writes it (`{ x throws(E) in ... }`); for work that throws
  /// `any Error` (`JSONDecoder`, most Foundation APIs) use ``tryMap(_:mapError:file:line:)``. Runs on the thread that
  /// delivered the value, when the promise runs.
  ///
  /// ```swift
  /// func parse(_ text: String) throws(ParseError) -> Int { ... }
  /// let number = Promise<String, ParseError>(value: "42").tryMap(parse)
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one, or throws the error that ends the chain.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the transformed value.
  @inlinable
  public func tryMap<U>(
    _ transform: @escaping @Sendable (T) throws(E) -> U, file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    _attemptMap(
      { value in Result { () throws(E) -> U in try transform(value) } }, kind: .tryMap, file: file, line: line)
  }

  /// Transforms the value with a function that throws any error, translating what it throws into the chain's
  /// error type: the translated error skips the rest of the chain.
  ///
  /// The one-step way to chain `any Error` APIs such as `JSONDecoder` into a promise with a typed error.
  ///
  /// ```swift
  /// let person = download(url)   // Promise<Data, AppError>
  ///   .tryMap { try JSONDecoder().decode(Person.self, from: $0) } mapError: { AppError.decoding("\($0)") }
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one, or throws.
  ///   - mapError: Turns what `transform` threw into the error that ends the chain.
  ///   - file: Where the stage is made, for tracing (``PromiseTracing``); leave the default.
  ///   - line: Where the stage is made, for tracing; leave the default.
  /// - Returns: A promise of the transformed value.
  @inlinable
  public func tryMap<U>(
    _ transform: @escaping @Sendable (T) throws -> U, mapError: @escaping @Sendable (any Error) -> E,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Promise<U, E> {
    _attemptMap(
      { value in
        do { return .success(try transform(value)) } catch { return .failure(mapError(error)) }
      }, kind: .tryMap, file: file, line: line)
  }
}
