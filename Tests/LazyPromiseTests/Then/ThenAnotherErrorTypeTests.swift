import LazyPromise
import LazyPromiseTestSupport
import Testing

/// Contract 10.6: a `then` step whose promise fails with another error type. An inline closure is refused by the
/// compiler (checked by `TypeCheck.sh diagnostics`); a function reference is taken as a plain value, and debug builds
/// report it where the stage is made.
@Suite("10.6 A then step of another error type")
struct ThenAnotherErrorTypeTests {
  init() { DiagnosticsCollector.install() }

  enum UserError: Error, Equatable { case notFound, avatar(AvatarError) }
  enum AvatarError: Error, Equatable { case missing }

  static func fetchAvatar(_ path: String) -> Promise<String, AvatarError> {
    Promise { completion in completion(.success("avatar of \(path)")) }
  }

  static func fetchAvatarFuture(_ path: String) -> Future<String, AvatarError> {
    Future(value: "avatar of \(path)")
  }

  #if DEBUG
    @Test("10.6 a function reference returning a promise of another error type is reported at the stage")
    func functionReferenceIsReported() {
      let user = Promise<String, UserError>(value: "ada")
      let madeAt = site(#fileID, #line + 1)
      _ = user.then(Self.fetchAvatar)
      #expect(DiagnosticsCollector.reports(at: madeAt).map(\.kind) == [.thenDeliversAnotherErrorType])
    }

    @Test("10.6 a closure with return, and a Future's then, are reported too")
    func closureWithReturnAndFutureAreReported() {
      let user = Promise<String, UserError>(value: "ada")
      let closureSite = site(#fileID, #line + 1)
      _ = user.then { path -> Promise<String, AvatarError> in return Self.fetchAvatar(path) }
      let future = Future<String, UserError>(value: "ada")
      let futureSite = site(#fileID, #line + 1)
      _ = future.then(Self.fetchAvatarFuture)
      #expect(DiagnosticsCollector.reports(at: closureSite).map(\.kind) == [.thenDeliversAnotherErrorType])
      #expect(DiagnosticsCollector.reports(at: futureSite).map(\.kind) == [.thenDeliversAnotherErrorType])
    }
  #endif

  @Test("10.6 a promise of the chain's own error type is run, not reported")
  func sameErrorTypeRuns() {
    let starts = Counter()
    let user = Promise<String, UserError>(value: "ada")
    let madeAt = site(#fileID, #line + 1)
    let avatar = user.then { path in
      Promise<String, UserError> { completion in
        _ = starts.increment()
        completion(.success("avatar of \(path)"))
      }
    }
    #expect(Outcome(avatar).result == .success("avatar of ada"))
    #expect(starts.current == 1)
    #expect(DiagnosticsCollector.reports(at: madeAt).isEmpty)
  }

  @Test("10.6 mapError makes the other error type the chain's, and the request runs")
  func mapErrorRuns() {
    let user = Promise<String, UserError>(value: "ada")
    let avatar = user.then { Self.fetchAvatar($0).mapError(UserError.avatar) }
    #expect(Outcome(avatar).result == .success("avatar of ada"))
  }

  @Test("10.6 map takes a nested promise as a value, and reports nothing")
  func mapIsNotReported() {
    let user = Promise<String, UserError>(value: "ada")
    let madeAt = site(#fileID, #line + 1)
    let nested = user.map(Self.fetchAvatar)
    #expect(Outcome(nested.then { $0.mapError(UserError.avatar) }).result == .success("avatar of ada"))
    #expect(DiagnosticsCollector.reports(at: madeAt).isEmpty)
  }
}
