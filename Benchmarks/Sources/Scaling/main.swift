import Foundation
// A probe of how one shared prebuilt chain scales: the same object run from 1, 2, ... N threads at once.
//
//   swift run -c release --package-path Benchmarks Scaling [RUNS] [SCENARIO ...]
//
// For each scenario and each thread count from 1 to N (the machine's active processors), every thread runs the
// chain RUNS times (default 100,000) after a common start. It prints the throughput (runs a second, over the wall
// time from the start to the last thread's end) and the CPU time per run, read from each thread's own CPU clock
// (`CLOCK_THREAD_CPUTIME_ID`) and averaged over the threads. Contention on a shared cache line costs CPU, so the
// column CPU per run against one thread is 1.00 when the runs do not touch each other's cache lines. The last
// column, each thread's CPU time over the wall time, is 1.00 when every thread had a core to itself throughout: below
// about 0.9 the threads took turns on a busy machine and did not contend, so that row says nothing about scaling.
// On a shared machine the figures move with how much the threads overlap: take the worst of a few quiet runs.
import LazyPromise
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A synchronous task whose body the optimizer cannot see: the `request` of `then { v in Promise { request(v, $0) } }`.
@inline(never)
func request(_ value: Int, _ completion: @Sendable (Result<Int, Never>) -> Void) {
  completion(.success(value &+ 1))
}

/// Where one thread's results go: one object per thread, so that the sink itself shares no cache line.
final class Sink: @unchecked Sendable {
  var total = 0
  // Pads the object past a cache line, so two threads' sinks never share one.
  var padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// What a scenario gives each thread: a function that runs the chain once into the thread's sink.
typealias Runner = @Sendable (Sink) -> Void

/// Hand-written nested callbacks, `joins` joins on `request`: the control. Written as code is, a function calling
/// `request` with a closure that calls the next: every closure is a non-escaping argument, so a run touches no
/// reference-counted object at all, and nothing another thread's run touches.
@inline(never)
func callbackJoins(_ joins: Int, _ value: Int, _ completion: @Sendable (Int) -> Void) {
  guard joins > 0 else { return completion(value) }
  request(value) { result in
    guard case .success(let output) = result else { return }
    callbackJoins(joins - 1, output, completion)
  }
}

func valueChain(_ stages: Int) -> Promise<Int, Never> {
  var promise = Promise<Int, Never>(value: 1)
  for _ in 0..<stages { promise = promise.map { $0 &+ 1 } }
  return promise
}

func joinChain(_ joins: Int) -> Promise<Int, Never> {
  var promise = Promise<Int, Never>(value: 1)
  for _ in 0..<joins {
    promise = promise.then { value in Promise<Int, Never> { completion in request(value, completion) } }
  }
  return promise
}

func futureChain(_ stages: Int) -> Promise<Int, Never> {
  var promise = Future<Int, Never>(value: 1).promise
  for _ in 0..<stages { promise = promise.map { $0 &+ 1 } }
  return promise
}

/// Runs a shared prebuilt promise into the thread's sink.
func sharing(_ promise: Promise<Int, Never>) -> Runner {
  { sink in promise.run(some: { sink.total &+= $0 }) }
}

let stages = 10

/// Each scenario makes, once per measurement, what every thread calls to get its runner: a shared chain is built
/// here and captured; "a chain per thread" builds one in each thread, before the clock starts.
let scenarios: [(name: String, make: () -> @Sendable () -> Runner)] = [
  (
    "callbacks, 10 joins (control)",
    {
      { { sink in callbackJoins(stages, 1) { sink.total &+= $0 } } }
    }
  ),
  (
    "Promise, 10 value stages",
    {
      let runner = sharing(valueChain(stages)); return { runner }
    }
  ),
  (
    "Promise, 10 joins",
    {
      let runner = sharing(joinChain(stages)); return { runner }
    }
  ),
  ("Promise, 10 joins, a chain per thread", { { sharing(joinChain(stages)) } }),
  (
    "resolved Future's promise, 10 value stages",
    {
      let runner = sharing(futureChain(stages)); return { runner }
    }
  ),
]

/// A thread's CPU time, in nanoseconds.
func threadCPU() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// Wall time, in nanoseconds.
func wall() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// What one thread is given and reports.
final class Worker: @unchecked Sendable {
  let prepare: @Sendable () -> Runner
  let runs: Int
  let start: Atomic<Int>
  let ready: UnsafeMutablePointer<Atomic<Int>>
  var cpu = 0
  var end = 0
  let sink = Sink()

  init(prepare: @escaping @Sendable () -> Runner, runs: Int, ready: UnsafeMutablePointer<Atomic<Int>>) {
    self.prepare = prepare
    self.runs = runs
    self.ready = ready
    start = Atomic(0)
  }

  func body(go: UnsafeMutablePointer<Atomic<Int>>) {
    let runner = prepare()
    for _ in 0..<1000 { runner(sink) }  // warm up
    ready.pointee.add(1, ordering: .releasing)
    while go.pointee.load(ordering: .acquiring) == 0 {}
    let before = threadCPU()
    for _ in 0..<runs { runner(sink) }
    cpu = threadCPU() - before
    end = wall()
  }
}

/// Runs `prepare()`'s runner on `threads` threads at once; returns (wall ns, mean CPU ns per run).
func measure(threads: Int, runs: Int, prepare: @escaping @Sendable () -> Runner) -> (wall: Int, cpuPerRun: Double) {
  let ready = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
  ready.initialize(to: Atomic(0))
  let go = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
  go.initialize(to: Atomic(0))
  defer {
    ready.deallocate()
    go.deallocate()
  }
  let workers = (0..<threads).map { _ in Worker(prepare: prepare, runs: runs, ready: ready) }
  var ids: [pthread_t] = []
  for worker in workers {
    let context = Unmanaged.passRetained(Box(worker: worker, go: go)).toOpaque()
    var id = pthread_t()
    let status = pthread_create(
      &id, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.worker.body(go: box.go)
        return nil
      }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    ids.append(id)
  }
  while ready.pointee.load(ordering: .acquiring) < threads {}
  let begin = wall()
  go.pointee.store(1, ordering: .releasing)
  for id in ids { pthread_join(id, nil) }
  let end = workers.map(\.end).max()!
  let cpu = Double(workers.map(\.cpu).reduce(0, +)) / Double(threads * runs)
  return (end - begin, cpu)
}

final class Box: @unchecked Sendable {
  let worker: Worker
  let go: UnsafeMutablePointer<Atomic<Int>>
  init(worker: Worker, go: UnsafeMutablePointer<Atomic<Int>>) {
    self.worker = worker
    self.go = go
  }
}

// A shared object's reference count is a shared word: a run that changes it writes a cache line every other run reads.
if CommandLine.arguments.contains("--counts") {
  let future = Future<Int, Never>(value: 1)
  let during = Mutex<UInt>(0)
  var promise = future.promise
  for _ in 0..<stages { promise = promise.map { $0 &+ 1 } }
  let chain = promise.map { value in
    during.withLock { $0 = _getRetainCount(future) }
    return value
  }
  let before = _getRetainCount(future)
  chain.run(some: { _ in })
  print("the shared resolved future's retain count: \(before) before a run, \(during.withLock { $0 }) during it")
  exit(0)
}

let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let runs = arguments.first.flatMap { Int($0) } ?? 100_000
let chosen = arguments.filter { Int($0) == nil }
let processors = ProcessInfo.processInfo.activeProcessorCount
print("\(runs) runs a thread; CPU per run from each thread's CPU clock, mean over the threads")
for scenario in scenarios where chosen.isEmpty || chosen.contains(where: { scenario.name.contains($0) }) {
  print("\n\(scenario.name)")
  print("| threads | runs/s | wall, ms | CPU per run, ns | CPU per run / 1 thread | runs/s / 1 thread | on CPU |")
  print("|---:|---:|---:|---:|---:|---:|---:|")
  var single: (cpu: Double, rate: Double)?
  for threads in 1...processors {
    let (elapsed, cpu) = measure(threads: threads, runs: runs, prepare: scenario.make())
    let rate = Double(threads * runs) / (Double(elapsed) / 1e9)
    let base = single ?? (cpu, rate)
    single = base
    print(
      "| \(threads) | \(Int(rate)) | \(format(Double(elapsed) / 1e6)) | \(format(cpu)) | \(format(cpu / base.cpu)) | "
        + "\(format(rate / base.rate)) | \(format(Double(runs) * cpu / Double(elapsed))) |")
  }
}

func format(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
