// MARK: - Tracing stages

/// Receives a call when a traced stage's function starts and when its outcome is known.
///
/// Tracing is opt-in: stages built inside ``PromiseTracing/withTracer(_:_:)`` call the tracer each time a run
/// reaches them; every other stage is built exactly as without tracing, and costs one relaxed atomic load
/// when it is built (measured in `Docs/Performance.md`). A stage that an earlier failure or a cancellation skips
/// is never started, so it reports nothing. A stage that returns a promise ends when that promise delivers, or
/// when the run is cancelled while it is pending (``PromiseStage/Outcome/cancelled``): every start is ended
/// exactly once.
///
/// `stageStarted` returns a span that the library hands back to `stageEnded`: a start time, a span of a
/// tracing system, or nothing (`Void`). Both are called on the thread that runs the stage, which may differ
/// between the two for a stage that returns a promise, and may be called from several runs at once.
///
/// ```swift
/// struct StageTimer: PromiseTracer {
///   func stageStarted(_ stage: PromiseStage) -> ContinuousClock.Instant { .now }
///
///   func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span start: ContinuousClock.Instant) {
///     print("\(stage): \(outcome) after \(start.duration(to: .now))")
///   }
/// }
///
/// let answer = PromiseTracing.withTracer(StageTimer()) {
///   lookup(id: 909253).then(decode).then { $0.name }
/// }
/// answer.run { print($0) }  // prints one line per stage, then the result
/// ```
public protocol PromiseTracer: Sendable {
  /// What `stageStarted` hands to `stageEnded`: a start time, a tracing system's span, or `Void`.
  associatedtype Span: Sendable = Void

  /// Called just before a traced stage's function runs.
  ///
  /// - Parameter stage: The stage: its kind and where it was made.
  /// - Returns: The span to hand back to ``stageEnded(_:outcome:span:)``.
  func stageStarted(_ stage: PromiseStage) -> Span

  /// Called once the stage's outcome is known: when its function returned a value or a `Result`, when the
  /// promise it returned delivered, or when the run was cancelled (or the promise abandoned) before it delivered.
  ///
  /// - Parameters:
  ///   - stage: The stage, as it was passed to ``stageStarted(_:)``.
  ///   - outcome: How the stage ended.
  ///   - span: What ``stageStarted(_:)`` returned for this start.
  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Span)
}

/// A traced stage: the operator that made it and the source location of that call.
///
/// ```swift
/// func stageStarted(_ stage: PromiseStage) {
///   print(stage)  // "then at ITunesLookup/LookUp.swift:42"
/// }
/// ```
public struct PromiseStage: Sendable, CustomStringConvertible {
  /// The operator that made a stage.
  public enum Kind: String, Sendable, CaseIterable {
    /// `then` with any closure or function.
    case then
    /// `map`.
    case map
    /// `attemptMap`.
    case attemptMap
    /// `flatMap`.
    case flatMap
    /// `tryMap`, with or without `mapError`.
    case tryMap
  }

  /// How a stage ended.
  public enum Outcome: Sendable, CustomStringConvertible {
    /// The stage produced its value.
    case succeeded
    /// The stage failed with this error (the chain's error type, erased); the rest of the chain is skipped.
    case failed(any Error)
    /// The run was cancelled before the promise the stage returned delivered (or that promise was abandoned).
    case cancelled

    /// `succeeded`, `failed(<error>)` or `cancelled`.
    public var description: String {
      switch self {
      case .succeeded: "succeeded"
      case .failed(let error): "failed(\(error))"
      case .cancelled: "cancelled"
      }
    }
  }

  /// The operator that made the stage.
  public let kind: Kind

  /// The file that made the stage, as `#fileID` writes it (`Module/File.swift`).
  public let fileID: StaticString

  /// The line that made the stage.
  public let line: UInt

  /// Describes a stage; the library makes these, tests and tracers may too.
  ///
  /// - Parameters:
  ///   - kind: The operator.
  ///   - fileID: The file, as `#fileID` writes it.
  ///   - line: The line.
  public init(kind: Kind, fileID: StaticString, line: UInt) {
    self.kind = kind
    self.fileID = fileID
    self.line = line
  }

  /// `<kind> at <fileID>:<line>`, for example `then at ITunesLookup/LookUp.swift:42`.
  public var description: String { "\(kind.rawValue) at \(fileID):\(line)" }
}
