// MARK: - Describing a promise

extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
  /// What the promise is made of, without running it: its known result, its task, or how many stages it chains.
  ///
  /// Reading it runs nothing and calls no task: a promise is a description of work, so this describes the
  /// description. A promise made from a value or an error shows it; one made from a task closure shows where it
  /// was made (in debug builds); any other shows how many stages its chain has, counting a cancellable task or a
  /// combinator (`zip`, `Promise.all`, `retry`, ...) as one, and not counting the promises a `flatMap` returns,
  /// which exist only once a run reaches it.
  ///
  /// ```swift
  /// print(Promise<Int, LookupError>(value: 42))           // Promise(value: 42)
  /// print(lookup(id: "909253").then(decode).map(\.name))  // Promise(3 stages)
  /// ```
  public var description: String {
    "Promise(\(_describeSource(String.init(describing:))))"
  }

  /// The promise's value and error types, then what ``description`` shows, with values as `debugPrint` shows them.
  ///
  /// Like ``description``, reading it runs nothing.
  ///
  /// ```swift
  /// debugPrint(Promise<String, LookupError>(value: "Queen"))  // Promise<String, LookupError>(value: "Queen")
  /// ```
  public var debugDescription: String {
    "Promise<\(T.self), \(E.self)>(\(_describeSource(String.init(reflecting:))))"
  }

  /// The source, with values written by `write`.
  private func _describeSource(_ write: (Any) -> String) -> String {
    switch _source {
    case .result(.success(let value)): return "value: \(write(value))"
    case .result(.failure(let error)): return "error: \(write(error))"
    case .task(_, let site):
      #if DEBUG
        return "task made at \(site)"
      #else
        _ = site
        return "task"
      #endif
    case .stage(let stage):
      let count = stage._withUnsafeGuaranteedRef { Int($0._depth) }
      return count == 1 ? "1 stage" : "\(count) stages"
    }
  }
}

// MARK: - Describing a future

extension Future: CustomStringConvertible, CustomDebugStringConvertible {
  /// The future's state now: pending, succeeded with a value, failed with an error, or cancelled.
  ///
  /// Reading it never blocks and never runs an observer; on a future another thread is completing, it shows the
  /// state before or after, never a mix.
  ///
  /// ```swift
  /// let (artist, resolver) = Future<String, LookupError>.makePending()
  /// print(artist)  // Future(pending)
  /// resolver.resolve("Queen")
  /// print(artist)  // Future(succeeded: Queen)
  /// ```
  public var description: String {
    "Future(\(_describeState(String.init(describing:))))"
  }

  /// The future's value and error types, then what ``description`` shows, with values as `debugPrint` shows them.
  ///
  /// ```swift
  /// debugPrint(Future<String, LookupError>(error: .notFound))  // Future<String, LookupError>(failed: LookupError.notFound)
  /// ```
  public var debugDescription: String {
    "Future<\(T.self), \(E.self)>(\(_describeState(String.init(reflecting:))))"
  }

  /// The state, with values written by `write`.
  private func _describeState(_ write: (Any) -> String) -> String {
    guard let result else { return "pending" }
    if isCancelled { return "cancelled" }
    switch result {
    case .success(let value): return "succeeded: \(write(value))"
    case .failure(let error): return "failed: \(write(error))"
    }
  }
}
