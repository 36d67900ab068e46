import LazyPromise
import Testing

@Suite("RetryBackoff")
struct RetryBackoffTests {
  @Test("8.6 a constant backoff waits the same before every retry")
  func constantWaitsTheSameBeforeEveryRetry() {
    let backoff = RetryBackoff.constant(.milliseconds(250))
    #expect((1...4).map(backoff.delay(beforeRetry:)) == Array(repeating: .milliseconds(250), count: 4))
  }

  @Test("8.6 an exponential backoff grows by its multiplier up to its maximum")
  func exponentialGrowsByTheMultiplierUpToTheMaximum() {
    let backoff = RetryBackoff.exponential(initial: .milliseconds(200), multiplier: 2, maximum: .seconds(2))
    #expect(
      (1...7).map(backoff.delay(beforeRetry:)) == [
        .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1_600), .seconds(2), .seconds(2),
        .seconds(2),
      ])
  }

  @Test("8.6 an exponential backoff for a huge retry number stays at the maximum")
  func exponentialOfAHugeRetryNumberStaysAtTheMaximum() {
    let backoff = RetryBackoff.exponential(initial: .seconds(1), multiplier: 10, maximum: .seconds(3_600))
    #expect(backoff.delay(beforeRetry: Int.max) == .seconds(3_600))
  }

  @Test(
    "8.6 a multiplier that is not a finite number of at least 1 counts as 1",
    arguments: [0.5, 0, -2, Double.nan, Double.infinity])
  func badMultipliersCountAsOne(multiplier: Double) {
    let backoff = RetryBackoff.exponential(initial: .seconds(1), multiplier: multiplier, maximum: .seconds(60))
    #expect((1...3).map(backoff.delay(beforeRetry:)) == [.seconds(1), .seconds(1), .seconds(1)])
  }

  @Test("8.6 a custom backoff receives the retry number, 1 for the first")
  func customBackoffReceivesTheRetryNumber() {
    let backoff = RetryBackoff { retry in .seconds(retry * 10) }
    #expect((1...3).map(backoff.delay(beforeRetry:)) == [.seconds(10), .seconds(20), .seconds(30)])
  }

  @Test("8.6 a backoff's negative delays count as zero")
  func negativeDelaysCountAsZero() {
    #expect(RetryBackoff.constant(.seconds(-1)).delay(beforeRetry: 1) == .zero)
    #expect(RetryBackoff.exponential(initial: .seconds(-1)).delay(beforeRetry: 3) == .zero)
  }
}
