import LazyPromise

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

/// An error type that can say "cancelled": awaiting a chain that fails with it ends at once when the awaiting task
/// is cancelled.
///
/// ```swift
/// let lookup = Promise<Int, LookupError>(error: .notFound)
/// ```
public enum LookupError: Error, Equatable, CancellationRepresentable {
  /// The looked-up thing does not exist.
  case notFound
  /// The run was cancelled.
  case cancelled
}
