// MARK: - Free-function spellings that point to the static combinators

// `zip` and the tuple `allSettled` are free functions because they take promises of different value types; the
// combinators over promises of one type are static methods (`Promise.all`, `Promise.race`, `Promise.any`). These
// unavailable free functions catch the other spelling: without them `all(promises)` and `any(promises)` bind to the
// standard library's SIMD functions with a diagnostic about `SIMDMask`, and `race(a, b)` is "not in scope".
// They cost SIMD code a little solver work and no measurable time (Performance.md, "Measured alternatives in the
// engine").
// There is no unavailable static `Promise.zip` pointing to the free `zip`: a member named `zip` hides every free
// `zip` — the standard library's too — from code inside an `extension Promise`, where `zip(a, b)` then fails to
// compile. The Combinators guide shows the message `Promise.zip(a, b)` gives and its fix.

/// Not available: an array of promises is combined with ``Promise/all(_:maxConcurrent:)``.
///
/// ```swift
/// let artists = Promise.all(ids.map(lookup))  // Promise<[Artist], LookupError>
/// ```
@available(
  *, unavailable,
  message: "write Promise.all(promises) for an array of promises, or zip(a, b) for promises of different types"
)
public func all<T: Sendable, E: Error>(_ promises: [Promise<T, E>], maxConcurrent: Int? = nil) -> Promise<[T], E> {
  fatalError("unavailable")
}

/// Not available: promises listed one by one are combined with ``zip(_:_:_:)`` or ``Promise/all(_:maxConcurrent:)``.
///
/// ```swift
/// let both = zip(lookup(id: 1), lookup(id: 2))  // Promise<(Artist, Artist), LookupError>
/// ```
@available(*, unavailable, message: "write zip(a, b) for a tuple of the values, or Promise.all([a, b]) for an array")
public func all<T: Sendable, E: Error>(_ first: Promise<T, E>, _ rest: Promise<T, E>...) -> Promise<[T], E> {
  fatalError("unavailable")
}

/// Not available: a race is ``Promise/race(_:_:)``.
///
/// ```swift
/// let fastest = Promise.race(lookup(on: primary), lookup(on: mirror))
/// ```
@available(*, unavailable, message: "write Promise.race(a, b)")
public func race<T: Sendable, E: Error>(_ first: Promise<T, E>, _ others: Promise<T, E>...) -> Promise<T, E> {
  fatalError("unavailable")
}

/// Not available: a race over an array is ``Promise/race(_:)``.
///
/// ```swift
/// let fastest = Promise.race(mirrors.map(lookup))  // Promise<Artist?, LookupError>
/// ```
@available(*, unavailable, message: "write Promise.race(promises)")
public func race<T: Sendable, E: Error>(_ promises: [Promise<T, E>]) -> Promise<T?, E> {
  fatalError("unavailable")
}

/// Not available: the first success of an array of promises is ``Promise/any(_:)``.
///
/// ```swift
/// let firstMirror = Promise.any(mirrors.map(lookup))  // Promise<Artist, AllFailedError<LookupError>>
/// ```
@available(*, unavailable, message: "write Promise.any(promises)")
public func any<T: Sendable, E: Error>(_ promises: [Promise<T, E>]) -> Promise<T, AllFailedError<E>> {
  fatalError("unavailable")
}

/// Not available: an array of promises is settled with ``Promise/allSettled(_:maxConcurrent:)``; this free function
/// takes promises one by one, of any types (``allSettled(_:_:_:)``).
///
/// ```swift
/// let settled = Promise.allSettled(mirrors.map(lookup))  // Promise<[Result<Artist, LookupError>], Never>
/// ```
@available(
  *, unavailable,
  message:
    "write Promise.allSettled(promises) for an array of promises, or allSettled(a, b) for promises listed one by one"
)
public func allSettled<T: Sendable, E: Error>(
  _ promises: [Promise<T, E>], maxConcurrent: Int? = nil
) -> Promise<[Result<T, E>], Never> {
  fatalError("unavailable")
}
