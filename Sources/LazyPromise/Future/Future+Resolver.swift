// MARK: - Writing

extension Future {
  /// Makes a pending future and the resolver that completes it.
  ///
  /// Keep the resolver with the work and hand out the future. The future's observers run on the thread that
  /// calls the resolver, before `resolve`/`reject` returns.
  ///
  /// ```swift
  /// let (photos, resolver) = Future<[Photo], APIError>.makePending()
  /// client.get("/photos") { resolver.complete($0) }
  /// return photos
  /// ```
  ///
  /// - Parameters:
  ///   - file: Where the future is made, for diagnostics; leave the default.
  ///   - line: Where the future is made, for diagnostics; leave the default.
  /// - Returns: The pending future and its writer side.
  @inlinable
  public static func makePending(
    file: StaticString = #fileID, line: UInt = #line
  ) -> (future: Future<T, E>, resolver: Resolver) {
    let future = Future(_pending: ())
    return (future, Resolver(_future: future, _site: _Site(file: file, line: line)))
  }

  /// The writer side of a pending future: completes it once.
  ///
  /// Completing runs the future's observers on the calling thread, before the call returns (deep inside a
  /// synchronous chain of callbacks, the trampoline may run them just after the outermost one returns). Only the
  /// first completion counts: later ones are ignored and, in debug builds, reported (see ``PromiseDiagnostics``),
  /// except after the future was cancelled, when a late result is expected and ignored silently.
  ///
  /// ```swift
  /// let (future, resolver) = Future<Int, ParseError>.makePending()
  /// resolver.resolve(42)
  /// resolver.reject(.empty)  // ignored: the future already holds 42
  /// ```
  public struct Resolver {
    @usableFromInline let _future: Future<T, E>
    @usableFromInline let _site: _Site
    #if DEBUG
      /// Shared by every copy of the resolver; reports a future left pending when the last copy goes.
      @usableFromInline let _witness: _ResolverWitness<T, E>
    #endif

    @inlinable
    init(_future: Future<T, E>, _site: _Site) {
      self._future = _future
      self._site = _site
      #if DEBUG
        _witness = _ResolverWitness(_future, site: _site)
      #endif
    }

    /// Completes the future with `result`, unless it is already completed.
    ///
    /// ```swift
    /// client.get(url) { result in resolver.complete(result) }
    /// ```
    ///
    /// - Parameter result: The result every observer receives.
    @inlinable
    public func complete(_ result: Result<T, E>) {
      guard tryComplete(result) else {
        #if DEBUG
          // A result arriving after `cancel()` is expected (the work may not stop at once): not reported.
          if !_future.isCancelled { PromiseDiagnostics.report(.futureCompletedMoreThanOnce, site: _site) }
        #endif
        return
      }
    }

    /// Completes the future with a value, unless it is already completed.
    ///
    /// ```swift
    /// resolver.resolve(artist)
    /// ```
    ///
    /// - Parameter value: The value every observer receives.
    @inlinable
    public func resolve(_ value: T) {
      complete(.success(value))
    }

    /// Completes the future with an error, unless it is already completed.
    ///
    /// ```swift
    /// resolver.reject(.notFound)
    /// ```
    ///
    /// - Parameter error: The error every observer receives.
    @inlinable
    public func reject(_ error: E) {
      complete(.failure(error))
    }
  }
}

extension Future.Resolver: Sendable where T: Sendable {}

#if DEBUG
  /// Lives as long as a resolver (every copy of it, and a `Future { completion in … }` task's completion); reports
  /// a future that can then never complete: still pending and not cancelled (contract 19.15).
  @usableFromInline
  final class _ResolverWitness<T, E: Error>: @unchecked Sendable {  // immutable; a future is thread-safe
    @usableFromInline let future: Future<T, E>
    @usableFromInline let site: _Site

    @inlinable
    init(_ future: Future<T, E>, site: _Site) {
      self.future = future
      self.site = site
    }

    deinit {
      if future.result == nil && !future.isCancelled {
        PromiseDiagnostics.report(.pendingFutureAbandoned, site: site)
      }
    }
  }
#endif
