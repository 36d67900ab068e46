import LazyPromise
import LazyPromiseTestSupport
import Testing

private enum ParseError: Error, Equatable {
  case notANumber(String)
  case wrapped(String)
}

private struct ForeignError: Error {
  let reason: String
}

@Sendable private func parse(_ text: String) throws(ParseError) -> Int {
  guard let number = Int(text) else { throw .notANumber(text) }
  return number
}

/// Throws `any Error`, as Foundation's decoders do.
@Sendable private func foreignParse(_ text: String) throws -> Int {
  guard let number = Int(text) else { throw ForeignError(reason: "not a number: \(text)") }
  return number
}

@Sendable private func describe(_ error: any Error) -> ParseError {
  .wrapped((error as? ForeignError)?.reason ?? "\(error)")
}

@Suite("tryMap: chaining throwing work — issue 14")
struct PromiseTryMapTests {
  @Test("16.1 tryMap with a typed throwing function continues with the value it returns")
  func aTypedThrowingFunctionContinuesWithItsValue() async {
    #expect(await Promise<String, ParseError>(value: "42").tryMap(parse).result == .success(42))
  }

  @Test("16.2 an error thrown in tryMap fails the chain and skips the rest of it")
  func aThrownErrorSkipsTheRestOfTheChain() async {
    let later = Counter()
    let chain = Promise<String, ParseError>(value: "x")
      .tryMap(parse)
      .map { value in
        later.increment()
        return value
      }
    #expect(await chain.result == .failure(.notANumber("x")))
    #expect(later.current == 0)
  }

  @Test("16.1 an earlier failure skips tryMap's throwing function")
  func anEarlierFailureSkipsTheThrowingFunction()
    async
  {
    let calls = Counter()
    let chain = Promise<String, ParseError>(error: .wrapped("upstream"))
      .tryMap { (text: String) throws(ParseError) -> Int in
        calls.increment()
        return try parse(text)
      }
    #expect(await chain.result == .failure(.wrapped("upstream")))
    #expect(calls.current == 0)
  }

  @Test("16.2 tryMap(_:mapError:) translates any thrown error into the chain's error type")
  func anyErrorIsTranslatedIntoTheChainsErrorType() async {
    let good = Promise<String, ParseError>(value: "7").tryMap(foreignParse, mapError: describe)
    let bad = Promise<String, ParseError>(value: "seven").tryMap {
      try foreignParse($0)
    } mapError: {
      describe($0)
    }
    #expect(await good.result == .success(7))
    #expect(await bad.result == .failure(.wrapped("not a number: seven")))
  }

  @Test("16.1 tryMap's function runs once per run, and only when the promise runs")
  func theFunctionRunsOncePerRunAndOnlyWhenRun() async {
    let calls = Counter()
    let promise = Promise<String, ParseError>(value: "1").tryMap { (text: String) throws(ParseError) -> Int in
      calls.increment()
      return try parse(text)
    }
    #expect(calls.current == 0)
    _ = await promise.result
    _ = await promise.result
    #expect(calls.current == 2)
  }

  @Test("16.2 Future.tryMap transforms the value or fails eagerly, with the thrown error or its translation")
  func futureTwinsTransformOrFail() {
    #expect(Future<String, ParseError>(value: "3").tryMap(parse).result == .success(3))
    #expect(Future<String, ParseError>(value: "z").tryMap(parse).result == .failure(.notANumber("z")))
    let translated = Future<String, ParseError>(value: "q").tryMap(foreignParse, mapError: describe)
    #expect(translated.result == .failure(.wrapped("not a number: q")))
  }
}
