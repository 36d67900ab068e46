// A tiny, deterministic driver for instruction counting under `valgrind --tool=callgrind`.
//
//   InstructionCounts SCENARIO STAGES RUNS [REPEATS]
//
// builds one chain of STAGES stages of SCENARIO and runs it RUNS times. Benchmarks/Scripts/check-instructions.sh
// runs it at two sizes and two run counts and takes differences, so process start-up and one-time costs cancel:
// what is left is the cost of one stage (build + run), or of one stage of a run of a prebuilt chain.
// REPEATS (default 1) does all of that REPEATS times over, each time with a new chain: the difference between 2
// and 1 is one warm build + run of a whole STAGES-stage chain, what a run costs once included
// (Benchmarks/Scripts/flat-cost.sh).
import LazyPromise
import NIOEmbedded

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The error type of every chain (never thrown on the success scenarios).
enum BenchError: Error {
  case failed
}

/// Where results go, so the optimizer cannot drop the work.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume(_ result: Result<Int, BenchError>) {
  if case .success(let value) = result { sink &+= value } else { sink &+= 1 }
}

/// Hand-written nested completion handlers, built in a loop as a promise chain is: the floor.
typealias Operation = (@escaping (Result<Int, BenchError>) -> Void) -> Void

func callbackChain(_ stages: Int) -> Operation {
  var operation: Operation = { completion in completion(.success(0)) }
  for _ in 0..<stages {
    let previous = operation
    operation = { completion in
      previous { result in
        switch result {
        case .success(let value): completion(.success(value &+ 1))
        case .failure(let error): completion(.failure(error))
        }
      }
    }
  }
  return operation
}

/// A step whose body the optimizer cannot see, as the callback benchmarks' `OpaqueStep.decrement`.
nonisolated(unsafe) var decrement: (Int, @escaping (Result<Int, BenchError>) -> Void) -> Void = { value, completion in
  completion(.success(value - 1))
}

/// The loop's final completion, opaque for the same reason (a known function would be propagated into
/// `callbackLoop`, and the closure it makes would capture nothing).
nonisolated(unsafe) var loopCompletion: (Result<Int, BenchError>) -> Void = { consume($0) }

/// A hand-written recursive loop: each iteration is a step whose completion starts the next one (the callback
/// benchmarks' `Callbacks.loop`); not stack-safe, so only for a few thousand iterations.
func callbackLoop(_ remaining: Int, _ completion: @escaping (Result<Int, BenchError>) -> Void) {
  if remaining == 0 { return completion(.success(0)) }
  decrement(remaining) { result in
    switch result {
    case .success(let next): callbackLoop(next, completion)
    case .failure(let error): completion(.failure(error))
    }
  }
}

/// An asynchronous API as a caller's task sees it: takes a value and a completion handler, and the optimizer cannot
/// see that it completes at once.
nonisolated(unsafe) var request: (Int, @escaping (Result<Int, BenchError>) -> Void) -> Void = { value, completion in
  completion(.success(value &+ 1))
}

/// Hand-written nested completion handlers that call `request` at every stage: the floor for a chain of tasks.
func callbackTaskChain(_ stages: Int) -> Operation {
  var operation: Operation = { completion in completion(.success(0)) }
  for _ in 0..<stages {
    let previous = operation
    operation = { completion in
      previous { result in
        switch result {
        case .success(let value): request(value, completion)
        case .failure(let error): completion(.failure(error))
        }
      }
    }
  }
  return operation
}

/// The join users write most: each stage returns a promise made from a task (a request, a timer, a registry).
func promiseTaskChain(_ stages: Int) -> Promise<Int, BenchError> {
  var chain = Promise<Int, BenchError>(value: 0)
  for _ in 0..<stages {
    chain = chain.then { value in Promise<Int, BenchError> { completion in request(value, completion) } }
  }
  return chain
}

/// Resolutions deferred by `pendingFutureChain`'s stages, resolved after `run` returns (as an event loop would);
/// the array keeps its capacity between runs.
nonisolated(unsafe) var later: [(Future<Int, BenchError>.Resolver, Int)] = []

/// Each stage returns the promise of a pending future, resolved after the stage has returned (the package
/// benchmarks' `Future.pendingPromise`).
func pendingFutureChain(_ stages: Int) -> Promise<Int, BenchError> {
  var chain = Promise<Int, BenchError>(value: 0)
  for _ in 0..<stages {
    chain = chain.then { value in
      let (future, resolver) = Future<Int, BenchError>.makePending()
      later.append((resolver, value &+ 1))
      return future.promise
    }
  }
  return chain
}

/// A recursive loop through a task: each iteration waits for a promise made from a task.
func taskLoop(_ remaining: Int) -> Promise<Int, BenchError> {
  if remaining == 0 { return Promise(value: 0) }
  return Promise<Int, BenchError> { completion in request(remaining &- 2, completion) }.then { taskLoop($0) }
}

/// Kinds of `then` stage, decided once so that the loop below costs only the stage.
enum Kind {
  case value, result, promise, mapOperator
}

func promiseChain(_ kind: Kind, _ stages: Int, failing: Bool) -> Promise<Int, BenchError> {
  var chain = failing ? Promise<Int, BenchError>(error: .failed) : Promise<Int, BenchError>(value: 0)
  switch kind {
  case .value: for _ in 0..<stages { chain = chain.then { $0 &+ 1 } }
  case .result: for _ in 0..<stages { chain = chain.then { .success($0 &+ 1) } }
  case .promise: for _ in 0..<stages { chain = chain.then { Promise(value: $0 &+ 1) } }
  case .mapOperator: for _ in 0..<stages { chain = chain.map { $0 &+ 1 } }
  }
  return chain
}

func loop(_ remaining: Int) -> Promise<Int, BenchError> {
  if remaining == 0 { return Promise(value: 0) }
  return Promise(value: remaining - 1).then { loop($0) }
}

func futureChain(_ stages: Int) {
  let (source, resolver) = Future<Int, BenchError>.makePending()
  var future = source
  for _ in 0..<stages { future = future.then { $0 &+ 1 } }
  resolver.resolve(0)
  future.observe { consume($0) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 || arguments.count == 4, let stages = Int(arguments[1]), let runs = Int(arguments[2]),
  let repeats = arguments.count == 4 ? Int(arguments[3]) : 1
else {
  print("usage: InstructionCounts SCENARIO STAGES RUNS [REPEATS]")
  exit(2)
}
let scenario = arguments[0]
// A step the optimizer must not see through: were `decrement` never assigned, it could inline it, prove the loop's
// closure does not escape and keep it on the stack, which no callback handed to a real asynchronous API gets.
if scenario.isEmpty {
  decrement = { value, completion in completion(.success(value)) }
  request = { value, completion in completion(.success(value)) }
  loopCompletion = { _ in }
}

/// The kind of `then` stage of the `promise.*` chain scenarios, looked up once (not in each repetition).
let kind: Kind? = [
  "promise.map": .value, "promise.mapOperator": .mapOperator, "promise.result": .result,
  "promise.flatMap": .promise, "promise.error": .value,
][scenario]

/// One build of SCENARIO's chain and its RUNS runs.
func measure() {
  switch scenario {
  case "callbacks.map":
    let operation = callbackChain(stages)
    for _ in 0..<runs { operation { consume($0) } }
  case "promise.map", "promise.mapOperator", "promise.result", "promise.flatMap", "promise.error":
    let chain = promiseChain(kind!, stages, failing: scenario == "promise.error")
    for _ in 0..<runs { chain.run { consume($0) } }
  case "callbacks.task":
    let operation = callbackTaskChain(stages)
    for _ in 0..<runs { operation { consume($0) } }
  case "promise.task":
    let chain = promiseTaskChain(stages)
    for _ in 0..<runs { chain.run { consume($0) } }
  case "nio.task":
    let loop = EmbeddedEventLoop()
    for _ in 0..<runs { nioTaskChain(stages, on: loop) }
  case "minimal.task":
    let chain = minimalTaskChain(stages)
    for _ in 0..<runs { chain.task { consume($0) } }
  case "minimal.taskLoop":
    for _ in 0..<runs { minimalTaskLoop(stages).task { consume($0) } }
  case "future.pendingPromise":
    let chain = pendingFutureChain(stages)
    for _ in 0..<runs {
      chain.run { consume($0) }
      while let (resolver, value) = later.popLast() { resolver.resolve(value) }
    }
  case "promise.taskLoop":
    for _ in 0..<runs { taskLoop(stages).run { consume($0) } }
  case "callbacks.loop":
    for _ in 0..<runs { callbackLoop(stages, loopCompletion) }
  case "promise.loop":
    for _ in 0..<runs { loop(stages).run { consume($0) } }
  case "future.map":
    for _ in 0..<runs { futureChain(stages) }
  case "promise.all":
    // STAGES children, each a known value behind one `then`, gathered by `Promise.all`: per child, per run.
    let all = Promise.all((0..<stages).map { Promise<Int, BenchError>(value: $0).then { $0 &+ 1 } })
    for _ in 0..<runs { all.run { consume($0.map { $0.count }) } }
  // The next three build one combinator and run it STAGES times: per run. RUNS is not used.
  case "promise.race.100":
    // 100 children of `promise.all`'s shape: the first decides, the others never start.
    let race = Promise.race((0..<100).map { Promise<Int, BenchError>(value: $0).then { $0 &+ 1 } })
    for _ in 0..<stages { race.run { consume($0.map { $0 ?? 0 }) } }
  case "promise.any.100":
    // 100 children that fail, so every child runs and the run fails with the 100 errors.
    let any = Promise.any(
      (0..<100).map { Promise<Int, BenchError>(value: $0).then { _ in Result<Int, BenchError>.failure(.failed) } })
    for _ in 0..<stages { any.run { consume($0.mapError { _ in BenchError.failed }) } }
  case "promise.zip.3":
    // Three known values of three types, each behind one `then`.
    let zipped = zip(
      Promise<Int, BenchError>(value: 1).then { $0 &+ 1 }, Promise<Bool, BenchError>(value: true).then { !$0 },
      Promise<String, BenchError>(value: "").then { $0 })
    for _ in 0..<stages { zipped.run { consume($0.map { $0.0 }) } }
  default:
    print("unknown scenario \(scenario)")
    exit(2)
  }
}

for _ in 0..<repeats { measure() }
