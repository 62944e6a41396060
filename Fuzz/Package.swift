// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets for SaneHosts' parsers: build and run them with `scripts/fuzz.sh TARGET SECONDS`.
///
/// A package of its own, so the sanitizer build (flags given on the command line) stays out of the main
/// package and its normal build. The targets that need only dependency-free modules (Blocklists, DNS)
/// import them from the main package; the hosts-file section editor and the Pi-hole JSON reader compile
/// the main package's own source files (symbolic links), so fuzzing them does not build GRDB,
/// swift-crypto, SwiftNIO and AsyncHTTPClient with the sanitizers.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
  name: "SaneHostsFuzz",
  dependencies: [
    .package(name: "SaneHosts", path: "..")
  ],
  targets: [
    /// Starts libFuzzer from each target's main.swift.
    .target(name: "FuzzerDriver"),
    /// The list parser and compiler, in every format and in automatic mode.
    .executableTarget(
      name: "FuzzParser",
      dependencies: ["FuzzerDriver", .product(name: "Blocklists", package: "SaneHosts")],
      swiftSettings: swiftSettings
    ),
    /// The hosts file's managed section (Sources/Apply/ManagedSection.swift).
    .executableTarget(
      name: "FuzzHostsEditor",
      dependencies: ["FuzzerDriver"],
      swiftSettings: swiftSettings
    ),
    /// DNS message decoding, and encoding what was decoded.
    .executableTarget(
      name: "FuzzDNSDecoder",
      dependencies: ["FuzzerDriver", .product(name: "DNS", package: "SaneHosts")],
      swiftSettings: swiftSettings
    ),
    /// The lenient Pi-hole reply reader (Sources/Pihole/PiholeModels.swift).
    .executableTarget(
      name: "FuzzPiholeJSON",
      dependencies: ["FuzzerDriver"],
      swiftSettings: swiftSettings
    ),
  ]
)
