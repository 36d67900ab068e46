// Tracing (PromiseTracer.swift, PromiseTracing.swift): how a traced stage reports.
//
// Off, a stage pays for `_isTracing()`: one call and one relaxed load of a global counter of open `withTracer`
// bodies. On, the stage's function is wrapped in a closure that calls the tracer around it and is
// stored in the same stage classes as an untraced function; a stage returning a promise runs that promise in a
// small task that ends the span when it delivers or when the run is cancelled, whichever comes first, or, if the
// task never runs or never ends, when it is released.

import Synchronization

/// How many `withTracer` bodies are running, on any thread. A global constant, so that reading it needs no lazy
/// initialization check.
@usableFromInline let tracingScopes = Atomic<Int>(0)

enum TracingContext {
  /// The tracer of the innermost `withTracer` body of this task or thread.
  @TaskLocal static var current: (any PromiseTracer)?
}

/// The tracer of the innermost `withTracer` body of this task or thread, for the traced builders.
@usableFromInline
func _currentTracer() -> (any PromiseTracer)? {
  TracingContext.current
}

/// Whether a stage built here and now may be traced: one relaxed load, false unless a `withTracer` body is open
/// somewhere. The traced builders then read the task-local tracer, and build the plain stage if there is none.
@inlinable
func _isTracing() -> Bool {
  tracingScopes.load(ordering: .relaxed) > 0
}

extension PromiseStage.Outcome {
  init<T, E>(_ result: Result<T, E>) {
    switch result {
    case .success: self = .succeeded
    case .failure(let error): self = .failed(error)
    }
  }
}

/// The one `stageEnded` call of a span that can end in three ways: its promise delivers, the run is cancelled while
/// the promise is pending, or the promise is released without ever delivering (the run was cancelled after the
/// stage's function returned it but before it started, or the run was abandoned). The first to come ends it.
private final class SpanEnd<Tracer: PromiseTracer>: Sendable {
  private let ended = Atomic<Bool>(false)
  private let tracer: Tracer
  private let stage: PromiseStage
  private let span: Tracer.Span

  init(_ tracer: Tracer, _ stage: PromiseStage, _ span: Tracer.Span) {
    self.tracer = tracer
    self.stage = stage
    self.span = span
  }

  func end(_ outcome: PromiseStage.Outcome) {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    tracer.stageEnded(stage, outcome: outcome, span: span)
  }

  deinit {
    end(.cancelled)
  }
}

/// `transform`, reporting to `tracer` around each call.
private func tracedValue<T, U, Tracer: PromiseTracer>(
  _ transform: @escaping @Sendable (T) -> U, _ stage: PromiseStage, _ tracer: Tracer
) -> @Sendable (T) -> U {
  { value in
    let span = tracer.stageStarted(stage)
    let next = transform(value)
    tracer.stageEnded(stage, outcome: .succeeded, span: span)
    return next
  }
}

/// `transform`, reporting to `tracer` around each call, with the `Result` as the outcome.
private func tracedResult<T, U, E, Tracer: PromiseTracer>(
  _ transform: @escaping @Sendable (T) -> Result<U, E>, _ stage: PromiseStage, _ tracer: Tracer
) -> @Sendable (T) -> Result<U, E> {
  { value in
    let span = tracer.stageStarted(stage)
    let next = transform(value)
    tracer.stageEnded(stage, outcome: PromiseStage.Outcome(next), span: span)
    return next
  }
}

/// `inner`, ending `span` when it delivers, or as cancelled when the run is cancelled or abandoned first.
private func spanEnding<U, E, Tracer: PromiseTracer>(
  _ inner: Promise<U, E>, _ stage: PromiseStage, _ tracer: Tracer, _ span: Tracer.Span
) -> Promise<U, E> {
  // The promise runs where the untraced stage would run it: inside this task, on the thread that runs the stage.
  // Unsafe only to the checker (`U` need not be `Sendable`): the promise is run, never shared between threads.
  nonisolated(unsafe) let inner = inner
  let end = SpanEnd(tracer, stage, span)
  return Promise<U, E> { completion, onCancel in
    let handle = inner.run { result in
      end.end(PromiseStage.Outcome(result))
      completion(result)
    }
    onCancel {
      end.end(.cancelled)
      handle.cancel()
    }
  }
}

/// `promise`, ending `span` at once if it already holds its result (`Promise(value:)`, and every plain value an
/// inline `then` closure returns), or else when it delivers or the run is cancelled.
private func spanEnded<U, E, Tracer: PromiseTracer>(
  _ promise: Promise<U, E>, _ stage: PromiseStage, _ tracer: Tracer, _ span: Tracer.Span
) -> Promise<U, E> {
  if case .result(let result) = promise._source {
    tracer.stageEnded(stage, outcome: PromiseStage.Outcome(result), span: span)
    return promise
  }
  return spanEnding(promise, stage, tracer, span)
}

/// `transform`, starting a span on each call that ends with the promise it returns.
private func tracedPromise<T, U, E, Tracer: PromiseTracer>(
  _ transform: @escaping @Sendable (T) -> Promise<U, E>, _ stage: PromiseStage, _ tracer: Tracer
) -> @Sendable (T) -> Promise<U, E> {
  { value in
    let span = tracer.stageStarted(stage)
    return spanEnded(transform(value), stage, tracer, span)
  }
}

/// `transform` turned into a `T -> Promise` function whose spans end when the step it returned delivers.
private func tracedStep<T, Step: ThenStep, Tracer: PromiseTracer>(
  _ transform: @escaping @Sendable (T) -> Step, _ stage: PromiseStage, _ tracer: Tracer
) -> @Sendable (T) -> Promise<Step.Success, Step.Failure> {
  { value in
    let span = tracer.stageStarted(stage)
    let step = transform(value)
    if let result = step as? Result<Step.Success, Step.Failure> {
      tracer.stageEnded(stage, outcome: PromiseStage.Outcome(result), span: span)
      return Promise(result: result)
    }
    if let promise = step as? Promise<Step.Success, Step.Failure> {
      return spanEnded(promise, stage, tracer, span)
    }
    // Another conformance to ThenStep: run it as the untraced stage would. Unsafe only to the checker: a step
    // need not be `Sendable`, and this one is used once, by the run whose stage made it.
    nonisolated(unsafe) let other = step
    let inner = Promise<Step.Success, Step.Failure>(
      _stage: _StepStage(
        upstream: _Source<Void, Step.Failure>.result(.success(())), owner: nil, transform: { _ in other }))
    return spanEnding(inner, stage, tracer, span)
  }
}

extension Promise {
  /// The stage `function` makes, reported to the current tracer as a `kind` stage made at `file`:`line`; `nil`
  /// when no tracer is installed.
  @usableFromInline
  func _traced<U>(
    _ function: _ValueFunction<T, U, E>, _ kind: PromiseStage.Kind, _ file: StaticString, _ line: UInt
  ) -> Promise<U, E>? {
    guard let tracer = _currentTracer() else { return nil }
    let stage = PromiseStage(kind: kind, fileID: file, line: line)
    let traced: _ValueFunction<T, U, E> =
      switch function {
      case .value(let transform): .value(tracedValue(transform, stage, tracer))
      case .result(let transform): .result(tracedResult(transform, stage, tracer))
      case .promise(let transform): .promise(tracedPromise(transform, stage, tracer))
      }
    return Promise<U, E>(_stage: _ValueStage(upstream: _source, owner: _owner, traced))
  }

  @usableFromInline
  func _tracedThen<Step: ThenStep>(
    _ transform: @escaping @Sendable (T) -> Step, _ kind: PromiseStage.Kind, _ file: StaticString, _ line: UInt
  ) -> Promise<Step.Success, E>? where Step.Failure == E {
    guard let tracer = _currentTracer() else { return nil }
    let stage = PromiseStage(kind: kind, fileID: file, line: line)
    let traced: @Sendable (T) -> Promise<Step.Success, E> = tracedStep(transform, stage, tracer)
    return Promise<Step.Success, E>(_stage: _ValueStage(upstream: _source, owner: _owner, .promise(traced)))
  }
}
