/// Makes a random program from a seed. `excluded` names operator families left out (`LAZYPROMISE_SIM_EXCLUDE`, comma
/// separated: `future`, `shared`, `time`, `retry`, `combinators`, `drop`, `twice`, `depth`), to tell one fault from
/// another.
struct Generator {
  private var random: SplitMix64
  private var nextLeaf = 0
  private var nextFn = 0
  private var shares: [Node] = []
  private var futures: [FutureDefinition] = []
  private let excluded: Set<String>
  private var inDefinition = false
  /// Whether a task may move the clock from inside its start (`neverAdvancing`): only in programs run at the top
  /// of the stack. Deeper, a `start()` behind queued trampoline work starts after it returns (6.8), so a clock its
  /// task moves moves later than the model, which calls everything directly, says.
  private var advancingTasks = false

  static func program(seed: UInt64, excluding excluded: Set<String> = []) -> Program {
    var generator = Generator(random: SplitMix64(seed: seed), excluded: excluded)
    return generator.program(seed: seed)
  }

  private init(random: SplitMix64, excluded: Set<String>) {
    self.random = random
    self.excluded = excluded
  }

  private mutating func program(seed: UInt64) -> Program {
    var depth: Int? = nil
    if !excluded.contains("depth") {
      // Past the trampoline's 128 KiB budget a run starts later, from the outermost step: what changes with depth
      // is a run that starts under the budget and crosses it on the way, so most depths are below it.
      switch random.int(0...9) {
      case 0...2: depth = nil
      case 3: depth = 0
      case 4...7: depth = random.int(20...127)
      default: depth = random.int(128...200)
      }
    }
    advancingTasks = (depth ?? 0) == 0 && !excluded.contains("time")
    let budget = random.int(1...14)
    let root = node(budget: budget)
    let cancelAt: Int? = random.chance(30) ? random.int(0...40) : nil
    return Program(
      seed: seed, shares: shares, futures: futures, root: root, cancelAt: cancelAt, depthKiB: depth)
  }

  private mutating func fn() -> Int {
    defer { nextFn += 1 }
    return nextFn
  }

  private mutating func result() -> SimResult {
    random.chance(55) ? .success(random.int(0...50)) : .failure(SimError(code: random.int(1...30)))
  }

  private mutating func leaf() -> Node {
    switch random.int(0...19) {
    case 0: return random.chance(50) ? .value(random.int(0...50)) : .error(random.int(1...30))
    case 1:
      defer { nextLeaf += 1 }
      return .catching(id: nextLeaf, result())
    default:
      defer { nextLeaf += 1 }
      let behavior: LeafBehavior
      switch random.int(0...19) {
      case 0...6: behavior = .sync(result())
      case 7: behavior = excluded.contains("twice") ? .sync(result()) : .twice(result(), random.int(0...30), result())
      case 8...15: behavior = .later(random.chance(25) ? 0 : random.int(1...30), result())
      case 16: behavior = .never
      case 17: behavior = advancingTasks ? .neverAdvancing(random.int(0...30)) : .never
      default: behavior = excluded.contains("drop") ? .never : .drop
      }
      return .task(Leaf(id: nextLeaf, behavior: behavior, cancelHandler: random.chance(60)))
    }
  }

  private mutating func inputs(budget: Int, count: ClosedRange<Int>) -> [Node] {
    let n = random.int(count)
    guard n > 0 else { return [] }
    let each = max((budget - 1) / n, 0)
    return (0..<n).map { _ in node(budget: random.int(0...each)) }
  }

  private mutating func node(budget: Int) -> Node {
    guard budget > 0 else { return leaf() }
    let rest = budget - 1
    let choice = random.int(0...29)
    switch choice {
    case 0...1: return .map(node(budget: rest), fn: fn(), random.chance(50) ? .named : .then)
    case 2: return .thenResult(node(budget: rest), fn: fn())
    case 3:
      let split = random.int(0...rest)
      return .flatMap(
        node(budget: split), fn: fn(), inner: node(budget: rest - split), random.chance(50) ? .named : .then)
    case 4: return .mapError(node(budget: rest), fn: fn())
    case 5: return .recover(node(budget: rest), fn: fn())
    case 6:
      let split = random.int(0...rest)
      return .flatMapError(node(budget: split), fn: fn(), inner: node(budget: rest - split))
    case 7...8 where !excluded.contains("retry"):
      let backoff: Int? = excluded.contains("time") || random.chance(60) ? nil : random.int(0...10)
      return .retry(node(budget: rest), retries: random.int(0...4), fn: fn(), backoff: backoff)
    case 9...10 where !excluded.contains("time"):
      return .timeout(node(budget: rest), ticks: random.int(1...40), code: 900 + random.int(0...9))
    case 11 where !excluded.contains("time"): return .delay(node(budget: rest), ticks: random.int(0...20))
    case 12...13 where !excluded.contains("combinators"):
      let limit: Int? = random.chance(50) ? random.int(0...3) : nil
      return .all(inputs(budget: rest, count: 0...4), maxConcurrent: limit)
    case 14 where !excluded.contains("combinators"): return .allSettled(inputs(budget: rest, count: 0...3))
    case 15...16 where !excluded.contains("combinators"): return .zip(inputs(budget: rest, count: 2...3))
    case 17...18 where !excluded.contains("combinators"):
      let array = random.chance(25)
      return .race(inputs(budget: rest, count: array ? 0...3 : 1...3), array: array)
    case 19 where !excluded.contains("combinators"): return .any(inputs(budget: rest, count: 0...3))
    case 20...21 where !excluded.contains("retry"): return .reduce(inputs(budget: rest, count: 0...3), fn: fn())
    case 22...23 where !excluded.contains("shared") && !inDefinition:
      if !shares.isEmpty && random.chance(50) { return .shared(random.int(0...shares.count - 1)) }
      inDefinition = true
      let body = node(budget: rest)
      inDefinition = false
      shares.append(body)
      return .shared(shares.count - 1)
    case 24...25 where !excluded.contains("future") && !inDefinition:
      if !futures.isEmpty && random.chance(40) { return .future(random.int(0...futures.count - 1)) }
      inDefinition = true
      let body = node(budget: rest)
      inDefinition = false
      futures.append(FutureDefinition(node: body, ops: futureOps(), branches: futureBranches()))
      return .future(futures.count - 1)
    case 26 where !excluded.contains("future"): return .startedFuture(node(budget: rest), futureOps())
    case 27 where !excluded.contains("time"): return .receive(node(budget: rest))
    case 28 where !excluded.contains("time"): return .subscribe(node(budget: rest))
    case 29 where !excluded.contains("combinators"): return .first(inputs(budget: rest, count: 0...3), fn: fn())
    default: return leaf()
    }
  }

  /// Observers registered side by side on one future: `observe`, and operators whose closure is called once (not
  /// `fold`, whose later steps may run after the next branch when a step's future hops).
  private mutating func futureBranches() -> [FutureBranch] {
    (0..<random.int(0...3)).map { _ in
      switch random.int(0...6) {
      case 0: .op(.map(fn()))
      case 1: .op(.flatMap(fn()))
      case 2: .op(.mapError(fn()))
      case 3: .op(.flatMapError(fn()))
      case 4: .op(.recover(fn()))
      case 5: .op(.always(fn()))
      default: .observe(fn())
      }
    }
  }

  private mutating func futureOps() -> [FutureOp] {
    (0..<random.int(0...2)).map { _ in
      switch random.int(0...6) {
      case 0: .map(fn())
      case 1: .flatMap(fn())
      case 2: .fold(fn())
      case 3: .flatMapError(fn())
      case 4: .recover(fn())
      case 5: .always(fn())
      default: .mapError(fn())
      }
    }
  }
}
