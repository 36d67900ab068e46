import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 6.7: a run whose task drops its completion handler without calling it can never deliver; once nothing
/// else holds it, it is freed, with what it captured, even under an operator that keeps state (`retry`, `reduce`)
/// and a started future that holds the run. (The combinators and `shared()` are the exemption contract 6.7 names.)
@Suite("Contract 6.7 — a run whose task drops its completion handler is freed")
struct ContractDroppedHandlerTests {
  /// Something a task captures, to see when the run lets go of it.
  final class Token: Sendable {}

  /// A promise whose task drops its completion handler uncalled, capturing `token`.
  static func dropping(_ token: Token) -> Promise<Int, TestError> {
    Promise { _ in withExtendedLifetime(token) {} }
  }

  static let shapes: [(String, @Sendable (Promise<Int, TestError>) -> Promise<Int, TestError>)] = [
    ("retry(3)", { $0.retry(3) }),
    (
      "retry(2) after a failure",
      { upstream in
        let failed = Counter()
        return Promise<Int, TestError> { completion in completion(.failure(.first)) }
          .flatMapError { _ in failed.increment() == 1 ? upstream : Promise(error: .second) }
          .retry(2)
      }
    ),
    ("reduce", { Promise.reduce([Promise(value: 1), $0, Promise(value: 3)], initial: 0, +) }),
    ("retry(3) of reduce", { Promise.reduce([$0], initial: 0, +).retry(3) }),
    ("timeout", { $0.timeout(.seconds(60), on: VirtualScheduler(), error: .second) }),
    ("then of a promise", { $0.then { Promise(value: $0) } }),
  ]

  @Test("6.7 a started future over a stateful operator whose task drops its handler is freed", arguments: 0..<6)
  func startedFutureIsFreed(shape: Int) {
    let (name, build) = Self.shapes[shape]
    weak var weakToken: Token?
    weak var weakFuture: Future<Int, TestError>?
    do {
      let token = Token()
      weakToken = token
      let future = build(Self.dropping(token)).start()
      weakFuture = future
      #expect(future.result == nil)
    }
    #expect(weakToken == nil, "\(name): the task's captures")
    #expect(weakFuture == nil, "\(name): the started future")
  }

  @Test(
    "6.7 a run over a stateful operator whose task drops its handler lets go once its handle is gone", arguments: 0..<6)
  func runIsFreed(shape: Int) {
    let (name, build) = Self.shapes[shape]
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      _ = build(Self.dropping(token)).run { _ in }
    }
    #expect(weakToken == nil, "\(name)")
  }

  @Test("6.7 cancelling still runs the cancel handler of a task that dropped its completion handler", arguments: 0..<6)
  func cancelReachesTheDroppedTask(shape: Int) {
    let (name, build) = Self.shapes[shape]
    let cancels = Counter()
    let dropping = Promise<Int, TestError> { _, onCancel in onCancel { _ = cancels.increment() } }
    let handle = build(dropping).run { _ in }
    handle.cancel()
    #expect(cancels.current == 1, "\(name)")
  }
}
