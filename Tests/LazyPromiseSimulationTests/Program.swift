/// The programs the simulation generates: a tree of promise operators over leaves, with `shared()` promises and
/// futures started before the run as definitions the tree refers to (so a program is a DAG), a cancel time and a
/// stack depth. Every promise in a program is a `Promise<Int, SimError>`.

/// The one error type of a program.
struct SimError: Error, Equatable, Hashable, CustomStringConvertible {
  var code: Int
  var description: String { "E(\(code))" }
}

typealias SimResult = Result<Int, SimError>

/// What a task does when it starts.
enum LeafBehavior: Equatable {
  /// Completes before its start returns.
  case sync(SimResult)
  /// Completes `ticks` milliseconds of virtual time later (0: on the next scheduler step).
  case later(Int, SimResult)
  /// Keeps its completion handler and never calls it.
  case never
  /// Keeps its completion handler, never calls it, and then moves the virtual clock `ticks` milliseconds on from
  /// inside its start, running the timers due by then: a timeout, or a cancel, may end the run it is part of
  /// before its start returns.
  case neverAdvancing(Int)
  /// Drops its completion handler without calling it (a lost callback, clause 5.1).
  case drop
  /// Completes before its start returns with the first result, keeps its completion handler, calls it again
  /// `ticks` milliseconds later with the second (refused: clause 4.2), and then lets it go.
  case twice(SimResult, Int, SimResult)
}

/// A task that counts its starts (`id`) and, with `cancelHandler`, registers a cancel handler that counts its calls.
struct Leaf: Equatable {
  var id: Int
  var behavior: LeafBehavior
  var cancelHandler: Bool
}

/// A stage of a future chain, each with the id of its counted closure: `Future.map`, `flatMap`, `mapError`,
/// `flatMapError` and `fold`, which `Future` writes itself, and `recover` and `always`, which go through `Promise`.
enum FutureOp: Equatable {
  case map(Int)
  case flatMap(Int)
  case mapError(Int)
  /// `flatMapError` with a function whose future completes with `SimFunctions.thenResult` of the error's code.
  case flatMapError(Int)
  /// `recover { }.setFailureType(to: SimError.self)`.
  case recover(Int)
  /// `always { _ in }`: called on both outcomes; the result passes on.
  case always(Int)
  /// `fold([1, 2])` with a step whose future completes with `SimFunctions.thenResult` of the partial value plus the
  /// element: the step can fail, and a failure ends the fold.
  case fold(Int)
}

/// How a value stage is spelled: `map`/`flatMap` or the matching `then` overload.
enum Spelling: Equatable {
  case named
  case then
}

/// A promise program. Integers named `fn` are the ids of counted user closures; their behaviour is a function of
/// the id (`SimFunctions`).
indirect enum Node: Equatable {
  case value(Int)
  case error(Int)
  case task(Leaf)
  /// `Promise.catching`: a leaf that returns or throws synchronously.
  case catching(id: Int, SimResult)
  /// `map { }` or `then { (Int) -> Int }`.
  case map(Node, fn: Int, Spelling)
  /// `then { (Int) -> Result<Int, SimError> }`.
  case thenResult(Node, fn: Int)
  /// `flatMap { }` or `then { (Int) -> Promise }`, the closure returning `inner`.
  case flatMap(Node, fn: Int, inner: Node, Spelling)
  case mapError(Node, fn: Int)
  /// `recover { }` then `setFailureType(to:)`.
  case recover(Node, fn: Int)
  case flatMapError(Node, fn: Int, inner: Node)
  /// `retry(retries) { predicate }`, with a constant backoff of `backoff` ticks when not `nil`.
  case retry(Node, retries: Int, fn: Int, backoff: Int?)
  case timeout(Node, ticks: Int, code: Int)
  case delay(Node, ticks: Int)
  /// `receive(on: scheduler)`: each result passed on from the scheduler.
  case receive(Node)
  /// `subscribe(on: scheduler)`: the input started from the scheduler.
  case subscribe(Node)
  case all([Node], maxConcurrent: Int?)
  case allSettled([Node])
  /// `zip` of two or three inputs.
  case zip([Node])
  /// `race`: the variadic form (one or more inputs) or, with `array`, `race([...])` (`nil` as -1).
  case race([Node], array: Bool)
  case any([Node])
  /// `Promise.first(of:where:)` with a counted predicate, `nil` delivered as -1.
  case first([Node], fn: Int)
  case reduce([Node], fn: Int)
  /// A run of the program's `index`th `shared()` promise.
  case shared(Int)
  /// A view (`future.promise`) of the program's `index`th future, started before the run.
  case future(Int)
  /// A future started on each run (`Promise(value: 0).flatMap { _ in node.start().ops.promise }`).
  case startedFuture(Node, [FutureOp])
}

/// A future started (with `start()`) before the run, and the stages chained on it eagerly; the program's views refer
/// to the last one (the intermediate futures are temporaries). `branches` are registered on that last future, in
/// order, beside each other: their closures are called in registration order (19.4), which the check compares.
struct FutureDefinition: Equatable {
  var node: Node
  var ops: [FutureOp]
  var branches: [FutureBranch] = []
}

/// One of several observers of one future: a plain `observe`, or an operator whose returned future is dropped.
enum FutureBranch: Equatable {
  case observe(Int)
  case op(FutureOp)

  var fn: Int {
    switch self {
    case .observe(let fn): fn
    case .op(let op): op.fn
    }
  }
}

struct Program: Equatable {
  var seed: UInt64
  var shares: [Node] = []
  var futures: [FutureDefinition] = []
  var root: Node
  /// When the harness cancels the run (virtual milliseconds after it started), if ever.
  var cancelAt: Int?
  /// How deep the run starts (and the tasks complete): `nil` at the top of the stack, otherwise inside another
  /// run's handler, after recursing this many KiB of stack.
  var depthKiB: Int?

  /// One more than the largest leaf id and closure id in the program.
  var idBounds: (leaves: Int, fns: Int) {
    var leaves = 0
    var fns = 0
    func visit(_ node: Node) {
      node.forEach { node in
        switch node {
        case .task(let leaf): leaves = max(leaves, leaf.id + 1)
        case .catching(let id, _): leaves = max(leaves, id + 1)
        default: break
        }
        if let fn = node.fn { fns = max(fns, fn + 1) }
        if case .startedFuture(_, let ops) = node { fns = max(fns, ops.map(\.fn).max().map { $0 + 1 } ?? 0) }
      }
    }
    shares.forEach(visit)
    futures.forEach { definition in
      visit(definition.node)
      fns = max(fns, definition.ops.map(\.fn).max().map { $0 + 1 } ?? 0)
      fns = max(fns, definition.branches.map(\.fn).max().map { $0 + 1 } ?? 0)
    }
    visit(root)
    return (leaves, fns)
  }
}

extension FutureOp {
  var fn: Int {
    switch self {
    case .map(let fn), .flatMap(let fn), .mapError(let fn), .flatMapError(let fn), .recover(let fn), .always(let fn),
      .fold(let fn):
      fn
    }
  }
}

extension Node {
  var fn: Int? {
    switch self {
    case .map(_, let fn, _), .thenResult(_, let fn), .flatMap(_, let fn, _, _), .mapError(_, let fn),
      .recover(_, let fn), .flatMapError(_, let fn, _), .retry(_, _, let fn, _), .reduce(_, let fn),
      .first(_, let fn):
      fn
    default: nil
    }
  }

  /// The direct children, in order (an inner promise after its outer input).
  var children: [Node] {
    switch self {
    case .value, .error, .task, .catching, .shared, .future: []
    case .map(let node, _, _), .thenResult(let node, _), .mapError(let node, _), .recover(let node, _),
      .retry(let node, _, _, _), .timeout(let node, _, _), .delay(let node, _), .startedFuture(let node, _),
      .receive(let node), .subscribe(let node):
      [node]
    case .flatMap(let node, _, let inner, _), .flatMapError(let node, _, let inner): [node, inner]
    case .all(let nodes, _), .allSettled(let nodes), .zip(let nodes), .race(let nodes, _), .any(let nodes),
      .first(let nodes, _),
      .reduce(let nodes, _):
      nodes
    }
  }

  /// Calls `body` on this node and every node below it.
  func forEach(_ body: (Node) -> Void) {
    body(self)
    for child in children { child.forEach(body) }
  }

  var size: Int { children.reduce(1) { $0 + $1.size } }
}

/// The behaviour of each counted closure, a function of its id, shared by the engine's program and the model.
enum SimFunctions {
  static func map(_ fn: Int, _ value: Int) -> Int { (value &* 3 &+ fn) % 1000 }

  /// The elements a future's `fold` folds.
  static let foldElements = [1, 2]

  static func thenResult(_ fn: Int, _ value: Int) -> SimResult {
    value % 3 == 0 ? .failure(SimError(code: 100 + fn)) : .success(value + fn)
  }

  static func mapError(_ fn: Int, _ error: SimError) -> SimError { SimError(code: (error.code &* 7 &+ fn) % 1000) }

  static func recover(_ fn: Int, _ error: SimError) -> Int { error.code + fn }

  static func shouldRetry(_ fn: Int, _ error: SimError) -> Bool { error.code % 4 != fn % 4 }

  static func combine(_ fn: Int, _ accumulated: Int, _ value: Int) -> Int {
    (accumulated &* 31 &+ value &+ fn) % 100_000
  }

  static func hash(_ values: [Int]) -> Int { values.reduce(17) { ($0 &* 31 &+ $1) % 100_000 } }

  static func hash(settled results: [SimResult]) -> Int {
    hash(
      results.map {
        switch $0 {
        case .success(let value): value
        case .failure(let error): -1 - error.code
        }
      })
  }

  static func accepts(_ fn: Int, _ value: Int) -> Bool { (value &+ fn) % 3 == 0 }

  static func allFailed(_ errors: [SimError]) -> SimError { SimError(code: 5000 + hash(errors.map(\.code)) % 1000) }
}

/// SplitMix64: a small, fast, well-mixed generator; the same seed gives the same program everywhere.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// `true` with probability `percent`/100.
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}
