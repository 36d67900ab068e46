import Dispatch

/// Where `wait(timeout:)` receives the run's result: written once by the completion, then read by the waiter after
/// the semaphore hands it over.
final class WaitBox<T, E: Error>: @unchecked Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private(set) var result: Result<T, E>?

  func put(_ result: Result<T, E>) {
    self.result = result
    semaphore.signal()
  }

  /// Waits for the result until `deadline`; `true` if it arrived.
  func wait(until deadline: DispatchTime) -> Bool {
    semaphore.wait(timeout: deadline) == .success
  }

  func wait() {
    semaphore.wait()
  }
}
