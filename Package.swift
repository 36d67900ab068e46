// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LazyPromise",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "LazyPromise", targets: ["LazyPromise"]),
    .library(name: "LazyPromiseFoundation", targets: ["LazyPromiseFoundation"]),
    .executable(name: "itunes-lookup", targets: ["ITunesLookup"]),
    .executable(name: "photo-albums", targets: ["PhotoAlbums"]),
  ],
  targets: [
    .target(name: "LazyPromise"),
    .testTarget(name: "LazyPromiseTests", dependencies: ["LazyPromise", "LazyPromiseTestSupport"]),
    // Threads racing on one run, future or chain; CI runs them again under the thread and address sanitizers.
    .testTarget(name: "LazyPromiseConcurrencyTests", dependencies: ["LazyPromise", "LazyPromiseTestSupport"]),
    // Stack safety, releasing and kept or dropped handlers; CI runs them again under the address sanitizer.
    .testTarget(name: "LazyPromiseMemoryTests", dependencies: ["LazyPromise", "LazyPromiseTestSupport"]),
    // Random programs checked against a model of the contract (Docs/Simulation.md).
    .testTarget(name: "LazyPromiseSimulationTests", dependencies: ["LazyPromise", "LazyPromiseTestSupport"]),
    // Foundation adapters and the iTunes example: the only targets that import Foundation.
    .target(name: "LazyPromiseFoundation", dependencies: ["LazyPromise"]),
    // What the two examples share: the console they write to and the options they read the same way.
    .target(name: "ExampleSupport"),
    .testTarget(name: "ExampleSupportTests", dependencies: ["ExampleSupport"]),
    .executableTarget(
      name: "ITunesLookup", dependencies: ["LazyPromise", "LazyPromiseFoundation", "ExampleSupport"],
      resources: [.copy("Resources")]),
    .target(name: "LoopbackHTTPServer", path: "Tests/LoopbackHTTPServer"),
    // What the test targets share (counters, recorders, manual tasks); a plain target, so that each can import it.
    .target(name: "LazyPromiseTestSupport", dependencies: ["LazyPromise"], path: "Tests/LazyPromiseTestSupport"),
    .testTarget(
      name: "LazyPromiseFoundationTests",
      dependencies: ["LazyPromise", "LazyPromiseFoundation", "LoopbackHTTPServer", "LazyPromiseTestSupport"]),
    .testTarget(
      name: "ITunesLookupTests",
      dependencies: [
        "ITunesLookup", "LazyPromise", "LazyPromiseFoundation", "LoopbackHTTPServer", "ExampleSupport",
        "LazyPromiseTestSupport",
      ]),
    // The photo-albums example: callbacks, a promise chain and zip side by side (Docs/Examples/PhotoAlbums.md).
    .executableTarget(
      name: "PhotoAlbums", dependencies: ["LazyPromise", "LazyPromiseFoundation", "ExampleSupport"],
      exclude: ["make-recordings.swift"], resources: [.copy("Resources")]),
    .testTarget(
      name: "PhotoAlbumsTests",
      dependencies: ["PhotoAlbums", "LazyPromise", "LazyPromiseFoundation", "LoopbackHTTPServer", "ExampleSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
