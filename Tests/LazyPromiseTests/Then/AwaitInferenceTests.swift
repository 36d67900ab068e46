import LazyPromise
import LazyPromiseTestSupport
import Testing

/// An error type that cannot say "cancelled": awaiting a promise that fails with it waits for the work.
private enum PlainError: Error, Equatable {
  case failed
}

/// `Promise+Concurrency.swift` and `Future+Concurrency.swift`: with no type written, `value` and `result` take the
/// error type the chain's closures give, and behave as documented for it.
@Suite("Await inference — an await with no type written keeps the chain's own error type")
struct AwaitInferenceTests {
  @Test("9.1 await result after a mapError closure is typed with the error the closure returns")
  func resultKeepsTheClosuresErrorType() async {
    let outcome = await Promise<Int, TestError>(value: 1).mapError { _ in PlainError.failed }.map { $0 + 1 }.result
    #expect(type(of: outcome) == Result<Int, PlainError>.self)
    let eager = Future<Int, TestError>(value: 1).mapError { _ in PlainError.failed }.map { $0 + 1 }
    #expect(type(of: await eager.promise.result) == Result<Int, PlainError>.self)
  }

  @Test("9.3 try? await value after a mapError closure waits for the value when the awaiting task is cancelled")
  func tryAwaitValueWaitsAsAPlainErrorChainDoes() async {
    let work = ManualTask<Int, TestError>()
    let awaiting = Task { try? await work.promise.mapError { _ in PlainError.failed }.map { $0 + 1 }.value }
    await work.started.wait()
    awaiting.cancel()
    work.succeed(41)
    #expect(await awaiting.value == 42, "an untyped await would have ended at once with CancellationError")
    work.forget()
  }

  @Test("9.6 try? await a future's value after a mapError closure waits for the value when the task is cancelled")
  func tryAwaitFutureValueWaitsAsAPlainErrorChainDoes() async {
    let (future, resolver) = Future<Int, TestError>.makePending()
    let mapped = future.mapError { _ in PlainError.failed }.map { $0 + 1 }
    let started = Signal()
    let awaiting = Task {
      started.fire()
      return try? await mapped.value
    }
    await started.wait()
    awaiting.cancel()
    resolver.resolve(41)
    #expect(await awaiting.value == 42, "an untyped await would have ended at once with CancellationError")
  }

  @Test("9.2 an any Error promise still ends the await at once with CancellationError when the task is cancelled")
  func anyErrorAwaitStillEndsAtOnce() async {
    let work = ManualTask<Int, any Error>()
    let awaiting = Task { () async -> (any Error)? in
      do {
        _ = try await work.promise.value
        return nil
      } catch {
        return error
      }
    }
    await work.started.wait()
    awaiting.cancel()
    #expect(await awaiting.value is CancellationError)
    work.forget()
  }

  @Test("9.2 a generic any Error promise ends the await at once too: the rule follows the type, not the overload")
  func genericAnyErrorAwaitEndsAtOnce() async {
    func awaitGenerically<E: Error>(_ promise: Promise<Int, E>) async -> Result<Int, E> { await promise.result }
    let work = ManualTask<Int, any Error>()
    let awaiting = Task { await awaitGenerically(work.promise) }
    await work.started.wait()
    awaiting.cancel()
    let outcome = await awaiting.value
    #expect(throws: CancellationError.self) { try outcome.get() }
    work.forget()
  }
}
