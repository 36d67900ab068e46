import LazyPromise
import LazyPromiseTestSupport
import Testing

/// `Promise+CombinatorHints.swift`: the unavailable free `all`, `race` and `any` leave other functions of those
/// names working. (That `all(promises)` is rejected with a hint to `Promise.all` is a compile error, so it is
/// checked by hand: see the file's comment.)
@Suite("Combinator hints — free all, race and any point to the static combinators and shadow nothing")
struct CombinatorHintsTests {
  @Test("the standard library's SIMD all and any still resolve with LazyPromise imported")
  func simdAllAndAnyStillWork() {
    let mask = SIMD4<Float>(1, 2, 3, 4) .> SIMD4<Float>(0, 2, 0, 0)
    #expect(!all(mask))
    #expect(any(mask))
    #expect(all(SIMD2<Int>(1, 1) .== SIMD2<Int>(1, 1)))
  }

  @Test("22.2, 24.1, 25.1 the static combinators the hints point to combine the same promises")
  func staticCombinatorsAreTheSpellings() {
    let promises = [Promise<Int, TestError>(value: 1), Promise(value: 2)]
    #expect(Outcome(Promise.all(promises)).result == .success([1, 2]))
    #expect(Outcome(Promise.race(promises[0], promises[1])).result == .success(1))
    #expect(Outcome(Promise.race(promises)).result == .success(1))
    #expect(Outcome(Promise.any(promises).mapError { $0.errors.first ?? .first }).result == .success(1))
  }
}
