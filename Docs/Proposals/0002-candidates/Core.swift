// swift-format-ignore-file
// A declaration prototype for Benchmarks/TypeCheck/TypeCheck.sh (type-checker measurements), not library code.
// Shared core of every candidate: the struct, its initialisers and run.
// Only the `then`/`map`/`flatMap` declarations differ between candidates (see candidates/<name>/Then.swift).
import Synchronization

/// A handle returned by `run`; cancelling it is out of scope for this prototype.
public final class RunHandle: Sendable {
  @usableFromInline init() {}
}

public struct Promise<T, E: Error> {
  public typealias Completion = @Sendable (Result<T, E>) -> Void
  public typealias AsyncTask = @Sendable (_ completion: @escaping Completion) -> Void

  @usableFromInline let task: AsyncTask

  @inlinable
  public init(file: StaticString = #fileID, line: UInt = #line, _ task: @escaping AsyncTask) {
    self.task = task
  }

  @inlinable
  public init(value: T) {
    nonisolated(unsafe) let value = value
    self.task = { $0(.success(value)) }
  }

  @inlinable
  public init(error: E) {
    self.task = { $0(.failure(error)) }
  }

  @inlinable @discardableResult
  public func run(_ completion: @escaping Completion) -> RunHandle {
    task(completion)
    return RunHandle()
  }

  @inlinable @discardableResult
  public func run(some: @escaping @Sendable (T) -> Void, none: @escaping @Sendable (E) -> Void) -> RunHandle {
    task { result in
      switch result {
      case .success(let value): some(value)
      case .failure(let error): none(error)
      }
    }
    return RunHandle()
  }

  // The three workers every `then` spelling forwards to.
  @inlinable
  public func _map<U>(_ f: @escaping @Sendable (T) -> U) -> Promise<U, E> {
    let task = self.task
    return Promise<U, E> { completion in
      task { completion($0.map(f)) }
    }
  }

  @inlinable
  public func _flatMapResult<U>(_ f: @escaping @Sendable (T) -> Result<U, E>) -> Promise<U, E> {
    let task = self.task
    return Promise<U, E> { completion in
      task { completion($0.flatMap(f)) }
    }
  }

  @inlinable
  public func _flatMap<U>(_ f: @escaping @Sendable (T) -> Promise<U, E>) -> Promise<U, E> {
    let task = self.task
    return Promise<U, E> { completion in
      task { result in
        switch result {
        case .success(let value): f(value).task(completion)
        case .failure(let error): completion(.failure(error))
        }
      }
    }
  }
}

extension Promise: Sendable {}
