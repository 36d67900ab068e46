// MARK: - Synchronous work that can fail

extension Promise {
  /// Makes a promise of synchronous work that returns a value or throws the promise's typed error.
  ///
  /// Lazy (contract 14): `work` runs on each `run`, on the thread that starts that run, and never before; what it
  /// returns succeeds the run, what it throws fails it. With `E == Never` the closure cannot throw.
  ///
  /// ```swift
  /// let config = Promise.catching { () throws(ConfigError) -> Config in
  ///   guard let text = readConfigFile() else { throw .missing }
  ///   return try Config(parsing: text)
  /// }
  /// ```
  ///
  /// Say the error type in the closure, as above, or pass a function: Swift 6 infers `throws(any Error)` for a
  /// closure containing `throw` or `try`, whatever the context asks for. It is a static function, not an
  /// initializer, because an unlabeled `Promise { () throws(E) in ... }` initializer would also match — and take —
  /// the closures written for the async initializer (`Promise { () throws(E) in try await ... }`); see
  /// `Docs/Proposals/0003-peer-operators.md`.
  ///
  /// - Parameters:
  ///   - file: Where the promise is made, for diagnostics; leave the default.
  ///   - line: Where the promise is made, for diagnostics; leave the default.
  ///   - work: The work; it runs once per run.
  /// - Returns: A promise of what `work` returns, or of the error it throws.
  @inlinable
  public static func catching(
    file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable () throws(E) -> T
  ) -> Promise<T, E> {
    Promise(file: file, line: line) { (completion: @escaping Completion) in
      completion(Result { () throws(E) -> T in try work() })
    }
  }
}
