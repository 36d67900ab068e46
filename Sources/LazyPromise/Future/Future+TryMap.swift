// MARK: - Chaining throwing work

extension Future {
  /// Transforms the value with a function that throws the future's error type: a thrown `E` fails the returned
  /// future. The twin of `Promise.tryMap(_:)`; eager, like every `Future` stage.
  ///
  /// ```swift
  /// func parse(_ text: String) throws(ParseError) -> Int { ... }
  /// let number = Future<String, ParseError>(value: "42").tryMap(parse)
  /// ```
  ///
  /// - Parameter transform: Turns the value into the next one, or throws the error the future fails with.
  /// - Returns: A future of the transformed value.
  @inlinable
  public func tryMap<U>(_ transform: @escaping @Sendable (T) throws(E) -> U) -> Future<U, E> {
    attemptMap { value in Result { () throws(E) -> U in try transform(value) } }
  }

  /// Transforms the value with a function that throws any error, translating what it throws into the future's
  /// error type. The twin of `Promise.tryMap(_:mapError:)`.
  ///
  /// ```swift
  /// let person = data.tryMap { try JSONDecoder().decode(Person.self, from: $0) } mapError: { AppError.decoding("\($0)") }
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Turns the value into the next one, or throws.
  ///   - mapError: Turns what `transform` threw into the error the future fails with.
  /// - Returns: A future of the transformed value.
  @inlinable
  public func tryMap<U>(
    _ transform: @escaping @Sendable (T) throws -> U, mapError: @escaping @Sendable (any Error) -> E
  ) -> Future<U, E> {
    attemptMap { value in
      do { return .success(try transform(value)) } catch { return .failure(mapError(error)) }
    }
  }
}
