import LazyPromise
import Testing

// Pins issue 22's first chain as the library teaches it: `map` for plain stages (a value, a key path, a closure with
// `return`), `then` for `Result`/`Promise` stages and named functions, `tryMap` for a function that throws the chain's
// error. Written directly in `async` tests, so this target only builds if those chains type-check there. The times
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
@Sendable private func fetch(_ x: Int) -> Promise<[Int], AppError> { Promise(value: Array(repeating: x, count: 3)) }
@Sendable private func checkSize(_ x: Int) throws(AppError) -> Int {
  if x > 100 { throw .tooBig(x) }
  return x
}

/// The nine stages, spelled as the README teaches.
private func firstChain(_ input: String) -> Promise<Int, AppError> {
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
  @Test func theFirstChainAsTaughtDeliversItsValue() async {
    #expect(await firstChain("21").result == .success(8))  // [42, 42, 42].count = 3, + 1, * 2
  }

  @Test func theFirstChainStopsAtTheFirstFailure() async {
    #expect(await firstChain("x").result == .failure(.parse))
    #expect(await firstChain("-1").result == .failure(.negative))
  }

  @Test func theFirstChainTypeChecksWrittenInsideAnAsyncFunction() async {
    let chain = Promise<String, AppError>(value: "5")
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
      .tryMap(checkSize)
    expectType(chain, Promise<Int, AppError>.self)
    #expect(await chain.result == .success(8))
  }

  @Test func aFunctionThrowingTheChainsErrorChainsWithTryMap() async {
    let chain = Promise<Int, AppError>(value: 200).tryMap(checkSize)
    #expect(await chain.result == .failure(.tooBig(200)))
  }

  @Test func aThrowingClosureChainsWithTryMapWhenItWritesItsThrownType() async {
    let chain = Promise<Int, AppError>(value: 7).tryMap { x throws(AppError) in try checkSize(x) * 2 }
    #expect(await chain.result == .success(14))
  }

  @Test func thenStillTakesNamedFunctionsOfTheThreeShapesAndKeyPaths() async {
    @Sendable func describe(_ count: Int) -> String { "\(count) items" }
    let chain = Promise<String, AppError>(value: "2")
      .then(parse)
      .then(fetch)
      .then(\.count)
      .then(describe)
    expectType(chain, Promise<String, AppError>.self)
    #expect(await chain.result == .success("3 items"))
  }
}
