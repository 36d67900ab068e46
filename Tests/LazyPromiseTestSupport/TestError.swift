/// The error the tests fail with.
///
/// ```swift
/// let failed = Promise<Int, TestError>(error: .code(7))
/// ```
public enum TestError: Error, Equatable {
  /// The first of two errors a test tells apart.
  case first
  /// The second of two errors a test tells apart.
  case second
  /// An error that carries a number, for tests that need many distinct errors.
  case code(Int)
}
