// swift-tools-version: 6.1
import PackageDescription

// The LazyPromise benchmarks: a separate package so the library keeps zero dependencies.
// Every contender runs the same scenarios; peers live in their own benchmark targets.
// Run: swift package --package-path Benchmarks benchmark   (see Docs/Performance.md)

let benchmarkPlugin: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
let benchmark: Target.Dependency = .product(name: "Benchmark", package: "benchmark")

let package = Package(
  name: "LazyPromiseBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "LazyPromise", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // Scenario sizes, fixtures and the in-memory iTunes transport shared by every contender.
    .target(name: "BenchmarkSupport", dependencies: [benchmark], path: "Sources/BenchmarkSupport"),
    // The smallest generic lazy promise: the join's floor for the API's shape, before any engine.
    .target(name: "MinimalPromise", path: "Sources/MinimalPromise"),

    // The floor: hand-written nested completion handlers.
    .executableTarget(
      name: "CallbackBenchmarks",
      dependencies: [benchmark, "BenchmarkSupport", "MinimalPromise"],
      path: "Benchmarks/CallbackBenchmarks",
      plugins: benchmarkPlugin
    ),
    // LazyPromise `Promise` (lazy) and `Future` (eager).
    .executableTarget(
      name: "LazyPromiseBenchmarks",
      dependencies: [benchmark, "BenchmarkSupport", .product(name: "LazyPromise", package: "LazyPromise")],
      path: "Benchmarks/LazyPromiseBenchmarks",
      plugins: benchmarkPlugin
    ),
    // Not a package-benchmark target: a plain executable for instruction counting under valgrind's callgrind,
    // driven by Scripts/check-instructions.sh (the CI gate on instructions per stage). It lives under Sources/:
    // package-benchmark runs every executable target whose directory's parent is named "Benchmarks", and this one
    // would fail that run (`swift package benchmark` with no `--target` would end in "benchmarkCrashed").
    .executableTarget(
      name: "InstructionCounts",
      dependencies: [
        .product(name: "LazyPromise", package: "LazyPromise"), "MinimalPromise",
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
      ],
      path: "Sources/InstructionCounts"
    ),
    // What tracing costs when on (Docs/Guides/Tracing.md), measured under valgrind like InstructionCounts.
    .executableTarget(
      name: "TracingCounts",
      dependencies: [.product(name: "LazyPromise", package: "LazyPromise")],
      path: "Sources/TracingCounts"
    ),
    // How one shared prebuilt chain scales when run from 1, 2, ... N threads at once (Docs/Performance.md, "Many
    // threads, one chain"). A plain executable, under Sources/ for the reason given at InstructionCounts.
    .executableTarget(
      name: "Scaling",
      dependencies: [.product(name: "LazyPromise", package: "LazyPromise")],
      path: "Sources/Scaling"
    ),
    // swift-nio `EventLoopFuture` on an `EmbeddedEventLoop`.
    .executableTarget(
      name: "NIOFutureBenchmarks",
      dependencies: [
        benchmark, "BenchmarkSupport",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ],
      path: "Benchmarks/NIOFutureBenchmarks",
      plugins: benchmarkPlugin
    ),
    // OpenCombine `Deferred { Future }` chains.
    .executableTarget(
      name: "OpenCombineBenchmarks",
      dependencies: [benchmark, "BenchmarkSupport", .product(name: "OpenCombine", package: "OpenCombine")],
      path: "Benchmarks/OpenCombineBenchmarks",
      plugins: benchmarkPlugin
    ),
    // Swift async/await: steps awaited in one Task, and the cost of entering a Task.
    .executableTarget(
      name: "AsyncAwaitBenchmarks",
      dependencies: [benchmark, "BenchmarkSupport"],
      path: "Benchmarks/AsyncAwaitBenchmarks",
      plugins: benchmarkPlugin
    ),
  ],
  swiftLanguageModes: [.v6]
)
