import LazyPromise
import Testing

// Pins issue 22's first chain as the library teaches it: `map` for plain stages (a value, a key path, a closure with
// `return`), `then` for `Result`/`Promise` stages and named functions, `tryMap` for a function that throws the chain's
// error. The chain is written in an `async` function, so this target only builds if it type-checks there. The times
// are gated by `Benchmarks/TypeCheck/TypeCheck.sh goals` (shapes `issue22-map`, `issue22-map-throw`); the spellings
// rejected on purpose (`then { try ... }`) by `TypeCheck.sh diagnostics`, since a test target cannot hold code that
// does not compile.

private enum AppError: Error, Equatable {
  case parse
  case negative
  case tooBig(Int)
}

@Sendable private func parse(_ text: String) -> Result<Int, AppError> {
  Int(text).map { .success($0) } ?? .failure(.parse)
}
@Sendable private func fetch(_ x: Int) -> Promise<[Int], AppError> { Promise(value: Array(repeating: x, count: x)) }
@Sendable private func checkSize(_ x: Int) throws(AppError) -> Int {
  if x > 100 { throw .tooBig(x) }
  return x
}

/// The nine stages, spelled as the README teaches, in an `async` function: this target only builds if the
/// chain type-checks there (the synchronous case is gated by `TypeCheck.sh goals`, shape `issue22-map`).
private func firstChain(_ input: String) async -> Promise<Int, AppError> {
  Promise<String, AppError>(value: input)
    .then(parse)
    .map { $0 * 2 }
    .then { $0 > 0 ? .success($0) : .failure(.negative) }
    .then { x in fetch(x) }
    .map(\.count)
    .map { return $0 + 1 }
    .map { x in
      let doubled = x * 2
      return doubled
    }
    .then { $0 < 10_000 ? .success($0) : .failure(.tooBig($0)) }
}

/// Fails to compile unless `value` has exactly the type `type`.
private func expectType<T>(_ value: T, _ type: T.Type) {}

@Suite("A new user's first chain — issue 22")
struct FirstChainTests {
  @Test("2.1 the first chain as the README teaches it runs its nine stages in order and delivers their value")
  func theFirstChainAsTaughtDeliversItsValue() async {
    #expect(await firstChain("21").result == .success(86))  // 42 -> 42 elements -> 42 -> 43 -> 86
  }

  @Test(
    "3.1, 3.2 the first chain stops at its first failure, a parse error, a rejected value or a value too big, typed")
  func theFirstChainStopsAtTheFirstFailure() async {
    #expect(await firstChain("x").result == .failure(.parse))
    #expect(await firstChain("-1").result == .failure(.negative))
    #expect(await firstChain("3000").result == .failure(.tooBig(12_002)))
  }

  @Test("16.2 the first chain goes on with tryMap, keeping its error type, and the function's throw fails the run")
  func theFirstChainGoesOnWithTryMap() async {
    let checked = await firstChain("5").tryMap(checkSize)
    expectType(checked, Promise<Int, AppError>.self)
    #expect(await checked.result == .success(22))
    #expect(await firstChain("60").tryMap(checkSize).result == .failure(.tooBig(242)))
  }

  @Test("16.2 a function throwing the chain's error chains with tryMap, and its throw fails the run")
  func aFunctionThrowingTheChainsErrorChainsWithTryMap() async {
    let chain = Promise<Int, AppError>(value: 200).tryMap(checkSize)
    #expect(await chain.result == .failure(.tooBig(200)))
  }

  @Test("16.1 a throwing closure that writes its thrown type chains with tryMap and delivers its value")
  func aThrowingClosureChainsWithTryMapWhenItWritesItsThrownType() async {
    let chain = Promise<Int, AppError>(value: 7).tryMap { x throws(AppError) in try checkSize(x) * 2 }
    #expect(await chain.result == .success(14))
  }

  @Test("2.1 then still takes named functions of the three shapes and key paths, and runs them in order")
  func thenStillTakesNamedFunctionsOfTheThreeShapesAndKeyPaths() async {
    @Sendable func describe(_ count: Int) -> String { "\(count) items" }
    let chain = Promise<String, AppError>(value: "2")
      .then(parse)
      .then(fetch)
      .then(\.count)
      .then(describe)
    expectType(chain, Promise<String, AppError>.self)
    #expect(await chain.result == .success("2 items"))
  }
}
