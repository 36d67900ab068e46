import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 31 (operations from peers): `cascade(to:)`, `complete(with:)`, resolver identity, `setOrCascade(to:)`,
/// `unwrap(orReplace:)`, `unwrap(orElse:)`, `reduce(_:into:_:)`, `Promise()`.
@Suite("Operations from peers — contract 31")
struct PeerOperationsTests {
  init() { DiagnosticsCollector.install() }

  // MARK: 31.1 cascade(to:) and complete(with:)

  @Test("31.1 cascade completes the other future with this one's result, on the completing thread, before it returns")
  func cascadeForwardsThePendingResult() {
    let (source, sourceResolver) = Future<Int, TestError>.makePending()
    let (target, targetResolver) = Future<Int, TestError>.makePending()
    source.cascade(to: targetResolver)
    #expect(target.result == nil)
    sourceResolver.resolve(7)
    #expect(target.result == .success(7))

    let (failedSource, failing) = Future<Int, TestError>.makePending()
    let (failedTarget, failedTargetResolver) = Future<Int, TestError>.makePending()
    failedTargetResolver.complete(with: failedSource)
    failing.reject(.second)
    #expect(failedTarget.result == .failure(.second))
  }

  @Test("31.1 a completed future cascades at once; complete(with:) is the same operation seen from the resolver")
  func cascadeFromACompletedFutureIsImmediate() {
    let (target, resolver) = Future<String, TestError>.makePending()
    Future<String, TestError>(value: "now").cascade(to: resolver)
    #expect(target.result == .success("now"))

    let (other, otherResolver) = Future<String, TestError>.makePending()
    otherResolver.complete(with: Future(error: .first))
    #expect(other.result == .failure(.first))
  }

  @Test("31.1 cancelling the cascaded-to future does not cancel the source, and its late result is ignored silently")
  func cancellingTheTargetLeavesTheSource() {
    let (source, sourceResolver) = Future<Int, LookupError>.makePending()
    let (target, targetResolver) = Future<Int, LookupError>.makePending(file: "App/CascadeCancel.swift", line: 2)
    source.cascade(to: targetResolver)
    target.cancel()
    sourceResolver.resolve(1)
    #expect(source.result == .success(1))
    #expect(target.result == .failure(.cancelled))
    #expect(DiagnosticsCollector.reports(at: "App/CascadeCancel.swift:2").isEmpty)
  }

  #if DEBUG
    @Test("31.1 cascading into a future that is already completed is reported as a second completion")
    func cascadeIntoACompletedFutureIsReported() {
      let (target, resolver) = Future<Int, TestError>.makePending(file: "App/Cascade.swift", line: 4)
      resolver.resolve(1)
      Future<Int, TestError>(value: 2).cascade(to: resolver)
      #expect(target.result == .success(1))
      #expect(
        DiagnosticsCollector.reports(at: "App/Cascade.swift:4")
          == [PromiseDiagnostic(kind: .futureCompletedMoreThanOnce, site: "App/Cascade.swift:4")])
    }
  #endif

  // MARK: 31.2 Resolver identity

  @Test("31.2 a resolver equals its copies and no other resolver, and hashes as the future it completes")
  func resolversCompareByIdentity() {
    let (_, resolver) = Future<Int, Never>.makePending()
    let (_, other) = Future<Int, Never>.makePending()
    let copy = resolver
    #expect(copy == resolver)
    #expect(resolver != other)
    var waiting: Set = [resolver, other, copy]
    #expect(waiting.count == 2)
    waiting.remove(copy)
    #expect(waiting == [other])
  }

  // MARK: 31.3 setOrCascade(to:)

  @Test("31.3 setOrCascade keeps the first resolver and cascades the kept one's future to each later one")
  func setOrCascadeCoalesces() {
    var kept: Future<Int, TestError>.Resolver?
    kept.setOrCascade(to: nil)
    #expect(kept == nil)
    let (first, firstResolver) = Future<Int, TestError>.makePending()
    let (second, secondResolver) = Future<Int, TestError>.makePending()
    let (third, thirdResolver) = Future<Int, TestError>.makePending()
    kept.setOrCascade(to: firstResolver)
    #expect(kept == firstResolver)
    kept.setOrCascade(to: secondResolver)
    kept.setOrCascade(to: thirdResolver)
    kept.setOrCascade(to: nil)
    #expect(kept == firstResolver)
    #expect(second.result == nil)
    kept?.resolve(3)
    #expect([first.result, second.result, third.result] == [.success(3), .success(3), .success(3)])
  }

  // MARK: 31.4 unwrap(orReplace:) and unwrap(orElse:)

  @Test("31.4 unwrap(orReplace:) delivers the wrapped value or the replacement, and passes a failure on")
  func unwrapOrReplace() {
    #expect(Outcome(Promise<Int?, TestError>(value: 4).unwrap(orReplace: 0)).result == .success(4))
    #expect(Outcome(Promise<Int?, TestError>(value: nil).unwrap(orReplace: 0)).result == .success(0))
    #expect(Outcome(Promise<Int?, TestError>(error: .first).unwrap(orReplace: 0)).result == .failure(.first))
    #expect(Future<Int?, TestError>(value: 4).unwrap(orReplace: 0).result == .success(4))
    #expect(Future<Int?, TestError>(value: nil).unwrap(orReplace: 0).result == .success(0))
    #expect(Future<Int?, TestError>(error: .second).unwrap(orReplace: 0).result == .failure(.second))
  }

  @Test("31.4 unwrap(orElse:) is lazy and calls its function only for a nil, once per run that reaches it")
  func unwrapOrElse() {
    let calls = Counter()
    let fallback: @Sendable () -> Int = {
      calls.increment()
      return -1
    }
    let replaced = Promise<Int?, TestError>(value: nil).unwrap(orElse: fallback)
    #expect(calls.current == 0)
    #expect(Outcome(replaced).result == .success(-1))
    #expect(Outcome(replaced).result == .success(-1))
    #expect(calls.current == 2)
    #expect(Outcome(Promise<Int?, TestError>(value: 5).unwrap(orElse: fallback)).result == .success(5))
    #expect(Outcome(Promise<Int?, TestError>(error: .first).unwrap(orElse: fallback)).result == .failure(.first))
    #expect(calls.current == 2)

    let (pending, resolver) = Future<Int?, TestError>.makePending()
    let future = pending.unwrap(orElse: fallback)
    #expect(calls.current == 2)
    resolver.resolve(nil)
    #expect(future.result == .success(-1))
    #expect(Future<Int?, TestError>(value: 6).unwrap(orElse: fallback).result == .success(6))
    #expect(Future<Int?, TestError>(error: .first).unwrap(orElse: fallback).result == .failure(.first))
    #expect(calls.current == 3)
  }

  // MARK: 31.5 reduce(_:into:_:)

  @Test("31.5 reduce(into:) is lazy, runs the inputs one after another and starts each run from initial")
  func reduceIntoRunsInOrder() {
    let gates = (0..<3).map { _ in ManualTask<String, TestError>() }
    let joined = Promise.reduce(gates.map(\.promise), into: [String]()) { $0.append($1) }
    #expect(gates.map(\.starts.current) == [0, 0, 0])
    let outcome = Outcome(joined)
    #expect(gates.map(\.starts.current) == [1, 0, 0])
    gates[0].succeed("a")
    #expect(gates.map(\.starts.current) == [1, 1, 0])
    gates[1].succeed("b")
    gates[2].succeed("c")
    #expect(outcome.result == .success(["a", "b", "c"]))
    let again = Outcome(
      Promise.reduce([Promise<Int, TestError>(value: 1), Promise(value: 2)], into: [0]) { $0.append($1) })
    #expect(again.result == .success([0, 1, 2]))
  }

  @Test("31.5 reduce(into:) delivers the first failure at once, and with no inputs succeeds with initial")
  func reduceIntoFailsAndHandlesEmpty() {
    let later = ManualTask<Int, TestError>()
    let failing = Promise.reduce([Promise(value: 1), Promise(error: .second), later.promise], into: 0) { $0 += $1 }
    #expect(Outcome(failing).result == .failure(.second))
    #expect(later.starts.current == 0)
    #expect(Outcome(Promise.reduce([Promise<Int, TestError>](), into: 9) { $0 += $1 }).result == .success(9))
  }

  @Test("31.5 reduce(into:) changes the accumulated value in place: after the first input it is never copied")
  func reduceIntoUpdatesInPlace() {
    let shared = Counter()
    let inputs = (1...5).map { Promise<Int, TestError>(value: $0) }
    let folded = Promise.reduce(inputs, into: Box()) { box, value in
      if !isKnownUniquelyReferenced(&box.storage) {
        shared.increment()
        box.storage = Box.Storage(box.storage.values)
      }
      box.storage.values.append(value)
    }
    #expect(Outcome(folded).result.map { (try? $0.get())?.storage.values } == [1, 2, 3, 4, 5])
    // The first input finds the storage shared with `initial`, which the promise keeps for its next run.
    #expect(shared.current == 1)
  }

  // MARK: 31.6 Promise()

  @Test("31.6 Promise() succeeds with () on every run, with the error type from the context")
  func voidPromise() {
    let ready = Promise<Void, Never>()
    let runs = Counter()
    ready.run { _ in runs.increment() }
    ready.run { _ in runs.increment() }
    #expect(runs.current == 2)
    func warmUp() -> Promise<Void, TestError> { Promise() }
    #expect((Outcome(warmUp().map { 1 }).result) == .success(1))
  }

  // MARK: 31.7 The free allSettled hint shadows nothing

  @Test("31.7 with the unavailable free allSettled over an array, the static and tuple forms still resolve")
  func allSettledSpellingsStillResolve() {
    let one = Promise<Int, TestError>(value: 1)
    let two = Promise<String, TestError>(error: .first)
    #expect(Outcome(Promise.allSettled([one, one])).result?.map { $0.count } == .success(2))
    let settled = Outcome(allSettled(one, two)).result
    #expect(settled?.get().0 == .success(1))
    #expect(settled?.get().1 == .failure(.first))
  }
}

/// An accumulated value whose storage is a class, so a test can see whether `reduce(into:)` copies it.
private struct Box: Sendable {
  final class Storage: @unchecked Sendable {  // only touched by one run's `update`, one input at a time
    var values: [Int]
    init(_ values: [Int]) { self.values = values }
  }
  var storage = Storage([])
}
