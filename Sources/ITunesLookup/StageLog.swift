import ExampleSupport
import Foundation
import LazyPromise

/// What `--verbose` logs: each stage of the pipeline with its duration and outcome, as a ``PromiseTracer``
/// (`Docs/Guides/Tracing.md`).
///
/// One line per stage, when it ends: `then     ITunesLookup/Tool.swift:27     0.081 ms  ok`.
struct StageLog: PromiseTracer {
  /// The console whose diagnostics receive the lines.
  var console: Console

  func stageStarted(_ stage: PromiseStage) -> ContinuousClock.Instant { .now }

  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span start: ContinuousClock.Instant) {
    let (seconds, attoseconds) = start.duration(to: .now).components
    let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    let kind = stage.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
    let site = "\(stage.fileID):\(stage.line)".padding(toLength: 28, withPad: " ", startingAt: 0)
    let verdict =
      switch outcome {
      case .succeeded: "ok"
      case .failed: "failed"
      case .cancelled: "cancelled"
      }
    console.report("\(kind) \(site)\(String(format: "%9.3f", milliseconds)) ms  \(verdict)")
  }
}
