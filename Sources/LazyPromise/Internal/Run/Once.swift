import Synchronization

/// Lets exactly one of several racing sides through.
final class Once: Sendable {
  private let passed = Atomic<Bool>(false)

  /// `true` for the first caller only.
  func claim() -> Bool {
    !passed.exchange(true, ordering: .acquiringAndReleasing)
  }
}
