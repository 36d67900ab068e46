// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LazyPromise",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "LazyPromise", targets: ["LazyPromise"])
  ],
  targets: [
    .target(name: "LazyPromise"),
    .testTarget(name: "LazyPromiseTests", dependencies: ["LazyPromise"]),
  ],
  swiftLanguageModes: [.v6]
)
