// MARK: - Completing one future with another's result

extension Future {
  /// Completes the future of `resolver` with this future's result, when it arrives.
  ///
  /// swift-nio's `cascade(to:)` (contract 31.1). The other future is completed on the thread that completes this
  /// one, before that completion returns; if this future has already completed, at once, on the calling thread.
  /// The other future is completed with ``Resolver/complete(_:)``, so completing it twice is reported in debug
  /// builds as any second completion is; if it was cancelled, this result is ignored silently. Cancellation flows
  /// downstream only: cancelling the other future does not cancel this one.
  ///
  /// ```swift
  /// let (reply, resolver) = Future<Artist, LookupError>.makePending()
  /// lookupFromCache(id).cascade(to: resolver)  // reply completes when the cache answers
  /// ```
  ///
  /// - Parameter resolver: The writer side of the future to complete.
  @inlinable
  public func cascade(to resolver: Resolver) {
    // Unsafe only to the checker (`T` need not be `Sendable`), as in `init(_:)`: a resolver completes its future
    // through the future's atomic state word, from any thread.
    nonisolated(unsafe) let resolver = resolver
    observe { resolver.complete($0) }
  }
}

extension Future.Resolver {
  /// Completes this resolver's future with `future`'s result, when it arrives.
  ///
  /// swift-nio's `completeWith(_:)`; the same as `future.cascade(to: resolver)` (contract 31.1).
  ///
  /// ```swift
  /// let (reply, resolver) = Future<Artist, LookupError>.makePending()
  /// resolver.complete(with: lookupFromCache(id))
  /// ```
  ///
  /// - Parameter future: The future whose result this resolver's future receives.
  @inlinable
  public func complete(with future: Future<T, E>) {
    future.cascade(to: self)
  }
}

// MARK: - Resolver identity

extension Future.Resolver: Hashable {
  /// Whether two resolvers complete the same future (contract 31.2).
  ///
  /// A resolver is a handle on one pending future, so it is equal to its copies and to no other resolver, as
  /// swift-nio's `EventLoopPromise` is.
  ///
  /// ```swift
  /// let (_, resolver) = Future<Int, Never>.makePending()
  /// let copy = resolver
  /// assert(copy == resolver)
  /// ```
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._future === rhs._future
  }

  /// Hashes the identity of the future this resolver completes (contract 31.2).
  ///
  /// ```swift
  /// var waiting: Set<Future<Int, Never>.Resolver> = [resolver]
  /// waiting.remove(resolver)
  /// ```
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(_future))
  }
}

// MARK: - An optional resolver

extension Optional {
  /// Keeps `resolver` if there is none yet; otherwise completes its future with the kept one's result.
  ///
  /// swift-nio's `setOrCascade(to:)` (contract 31.3), for code that coalesces several requests for one piece of
  /// work — several writes waiting for one flush — into the first request's resolver: the first call stores
  /// `resolver`; each later call cascades the stored resolver's future to the new one (``Future/cascade(to:)``),
  /// so completing the stored resolver completes them all. A `nil` argument changes nothing.
  ///
  /// ```swift
  /// var flushed: Future<Void, WriteError>.Resolver?
  /// func flush(_ resolver: Future<Void, WriteError>.Resolver) {
  ///   flushed.setOrCascade(to: resolver)  // one flush completes every waiting writer
  /// }
  /// ```
  ///
  /// - Parameter resolver: The resolver to store, or to complete along with the stored one.
  @inlinable
  public mutating func setOrCascade<T, E>(to resolver: Future<T, E>.Resolver?) where Wrapped == Future<T, E>.Resolver {
    guard let resolver else { return }
    switch self {
    case .none: self = resolver
    case .some(let kept): kept._future.cascade(to: resolver)
    }
  }
}
