// What tracing costs when it is on (Docs/Guides/Tracing.md): a chain built inside `PromiseTracing.withTracer` with
// a tracer that does nothing, next to the same chain untraced. Run under valgrind, as check-instructions.sh runs
// InstructionCounts; a separate program, so that these chains do not change how the compiler optimizes the gated
// scenarios (it merges similar closures across a module).
//
//   TracingCounts SCENARIO STAGES RUNS
//   SCENARIO: then | traced.then | task | traced.task
import Foundation
import LazyPromise

enum BenchError: Error { case failed }

/// A tracer that does nothing: what tracing costs the library itself.
struct NullTracer: PromiseTracer {
  func stageStarted(_ stage: PromiseStage) {}
  func stageEnded(_ stage: PromiseStage, outcome: PromiseStage.Outcome, span: Void) {}
}

@inline(never)
func consume(_ result: Result<Int, BenchError>) {
  if case .failure = result { print("unexpected failure") }
}

/// `then { $0 + 1 }` stages: the inline closure produces a ready value.
func valueChain(_ stages: Int) -> Promise<Int, BenchError> {
  var chain = Promise<Int, BenchError>(value: 0)
  for _ in 0..<stages { chain = chain.then { $0 &+ 1 } }
  return chain
}

/// `flatMap` stages returning a promise made from a task, which a traced stage waits for.
func taskChain(_ stages: Int) -> Promise<Int, BenchError> {
  var chain = Promise<Int, BenchError>(value: 0)
  for _ in 0..<stages { chain = chain.flatMap { value in Promise { $0(.success(value &+ 1)) } } }
  return chain
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let stages = Int(arguments[arguments.startIndex + 1]),
  let runs = Int(arguments[arguments.startIndex + 2])
else {
  print("usage: TracingCounts then|traced.then|task|traced.task STAGES RUNS")
  exit(2)
}
let chain: Promise<Int, BenchError>
switch arguments[arguments.startIndex] {
case "then": chain = valueChain(stages)
case "traced.then": chain = PromiseTracing.withTracer(NullTracer()) { valueChain(stages) }
case "task": chain = taskChain(stages)
case "traced.task": chain = PromiseTracing.withTracer(NullTracer()) { taskChain(stages) }
default:
  print("unknown scenario")
  exit(2)
}
for _ in 0..<runs { chain.run { consume($0) } }
