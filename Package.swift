// swift-tools-version: 6.1
import PackageDescription

/// One set of compiler settings for every target, so all modules are built the same way.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

/// The release executables carry the Swift runtime and Foundation in themselves (as `swift build
/// --static-swift-stdlib` does): none of their symbols is looked up and bound at each start (docs/performance.md,
/// "The binary"). Compiled so, the executable's own objects name the
/// static libraries (and what Foundation's need: ICU, CoreFoundation) for the linker. Only the executable
/// targets: the libraries stay as they are for the packages that build them otherwise (Fuzz/). Release
/// only: the debug test runner links the CLI's module beside the shared runtime that Swift Testing uses.
let staticStandardLibrary = BuildSettingCondition.when(platforms: [.linux], configuration: .release)
let executableSwiftSettings = swiftSettings + [.unsafeFlags(["-static-stdlib"], staticStandardLibrary)]

/// How the release executables are linked, with `LeanICUData` (sizes and resident memory: docs/performance.md, "The
/// binary"): lld; no symbol table for the dynamic loader (`-static-stdlib` asks for `--export-dynamic`,
/// which also kept every public function of every package from `--gc-sections`); relative relocations
/// packed (`.relr.dyn`, 0.03 MB, where `.rela.dyn` was 3.4 MB, all read at each start); identical functions
/// folded once; the C++ library linked in, not loaded (Linking/libstdc++.so).
let executableLinkerSettings: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-stdlib", "-use-ld=lld", "-L", Context.packageDirectory + "/Linking",
      "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--icf=all",
    ], staticStandardLibrary)
]

let package = Package(
  name: "SaneHosts",
  // Linux only: SaneHosts manages /etc/hosts, Linux DNS servers and systemd timers, and calls Glibc
  // directly; no Apple platform is declared because none is supported.
  products: [
    .executable(name: "sanehosts", targets: ["SaneHostsCLI"]),
    .executable(name: "sanehosts-bench", targets: ["Benchmarks"]),
    .library(name: "Loading", targets: ["Loading"]),
    .library(name: "Downloads", targets: ["Downloads"]),
    .library(name: "Blocklists", targets: ["Blocklists"]),
    .library(name: "Catalog", targets: ["Catalog"]),
    .library(name: "Store", targets: ["Store"]),
    .library(name: "Updates", targets: ["Updates"]),
    .library(name: "Apply", targets: ["Apply"]),
    .library(name: "Files", targets: ["Files"]),
    .library(name: "BlockerTest", targets: ["BlockerTest"]),
    .library(name: "DNS", targets: ["DNS"]),
    .library(name: "Pihole", targets: ["Pihole"]),
    .library(name: "Dashboard", targets: ["Dashboard"]),
    .library(name: "UseCases", targets: ["UseCases"]),
    .library(name: "Traffic", targets: ["Traffic"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
  ],
  targets: [
    // MARK: Libraries

    /// ICU's data with only the root and English locales (4 MB; Foundation's own copy, 34 MB, is then left
    /// out of the release executables): `scripts/lean-icu.py` writes it from the toolchain's.
    .target(
      name: "LeanICUData",
      exclude: ["icudt76l-lean.dat"],
      cSettings: [.headerSearchPath("."), .define("SANEHOSTS_LEAN_ICU", to: "1", staticStandardLibrary)]
    ),
    /// System headers Swift's Glibc module leaves out (extended attributes, for SELinux labels).
    .target(name: "SystemExtras"),
    /// zlib (package zlib1g-dev), for query logs that logrotate compressed.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    /// A lock around a value that ThreadSanitizer understands (a POSIX mutex).
    .target(
      name: "Locking",
      swiftSettings: swiftSettings
    ),
    /// Atomic file replacement shared by every module that writes files.
    .target(
      name: "Files",
      dependencies: ["SystemExtras"],
      swiftSettings: swiftSettings
    ),
    /// Loading states, a replaying state relay, retrying and debouncing loaders.
    .target(
      name: "Loading",
      dependencies: ["Locking"],
      swiftSettings: swiftSettings
    ),
    /// Streaming HTTP and file downloads with progress, cancel, resume, retry and conditional requests.
    .target(
      name: "Downloads",
      dependencies: [
        "Locking",
        "Files",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),

    /// The blocklist engine: streaming parser, validation, merge, allow/deny rules, renderers.
    .target(
      name: "Blocklists",
      dependencies: ["Files", "SystemExtras"],
      swiftSettings: swiftSettings
    ),

    /// The built-in catalog of public lists and the presets that combine them.
    .target(
      name: "Catalog",
      dependencies: ["Blocklists"],
      resources: [.embedInCode("Resources/catalog.json")],
      swiftSettings: swiftSettings
    ),

    /// The data directory: the SQLite database (sources, names, profiles, rules, runs) and the list cache.
    .target(
      name: "Store",
      dependencies: [
        "Blocklists",
        "Catalog",
        "Files",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),

    /// Updating a profile: fetch, parse, validate and save every source, then recompile.
    .target(
      name: "Updates",
      dependencies: [
        "Blocklists",
        "Files",
        "Downloads",
        "Loading",
        "Locking",
        "Store",
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),

    /// Applying a profile: the managed section of a hosts file, DNS server drop-ins, backups, cache flush, schedules.
    .target(
      name: "Apply",
      dependencies: [
        "Locking",
        "Files", "Blocklists", "Store", "Traffic",
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),

    /// The blocker test: the registry, probes (system, DNS, HTTPS), the runner, scores and reports.
    .target(
      name: "BlockerTest",
      dependencies: [
        "Locking",
        "Blocklists", "Files", "Store", "DNS",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      resources: [.embedInCode("Resources/registry.tsv")],
      swiftSettings: swiftSettings
    ),

    /// A Pi-hole v6 API client: sessions (always logged out), lists, domains, gravity, search.
    .target(
      name: "Pihole",
      dependencies: [
        "Loading",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),

    /// A DNS message codec and a client for one server: UDP with TCP fallback, spoof-checked, cancellable;
    /// dynamic updates (RFC 2136) signed with TSIG (RFC 8945), the primary's side of a fleet.
    .target(
      name: "DNS",
      dependencies: ["Locking", .product(name: "Crypto", package: "swift-crypto")],
      swiftSettings: swiftSettings
    ),

    /// What the CLI and the dashboard both do, in one place: the front ends read input, call, render.
    /// The network's traffic against a profile: query logs of dnsmasq, unbound and BIND read (rotated and
    /// gzip'd copies too), each query counted for the lists that block it.
    .target(
      name: "Traffic",
      dependencies: ["Blocklists", "CZlib"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "UseCases",
      dependencies: [
        "Apply", "BlockerTest", "Blocklists", "DNS", "Downloads", "Pihole", "Store", "Traffic", "Updates",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ],
      swiftSettings: swiftSettings
    ),

    /// Writes a target's `Resources/Templates/*.mustache` into one Swift file (`Templates.files`), for the
    /// EmbedTemplates build plugin.
    .executableTarget(name: "TemplateEmbedder"),
    /// Embeds the Mustache templates of a target, each registered by its file name (see `TemplateEmbedder`).
    .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),

    /// The local web dashboard: pages, a JSON API, live progress over Server-Sent Events, list subscriptions.
    .target(
      name: "Dashboard",
      dependencies: [
        "Traffic",
        "Locking",
        "Apply", "BlockerTest", "Blocklists", "Catalog", "DNS", "Downloads", "Files", "Loading", "Store", "Updates",
        "UseCases",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Mustache", package: "swift-mustache"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // The stylesheet, the script and the Mustache templates are files (a test checks the script's syntax
      // with node, and parses every template), compiled into the binary: `sanehosts serve` needs no file
      // beside it. The templates go in through the EmbedTemplates plugin, which lists them by name.
      exclude: ["Resources/Templates"],
      resources: [.embedInCode("Resources/dashboard.css"), .embedInCode("Resources/dashboard.js")],
      swiftSettings: swiftSettings,
      plugins: ["EmbedTemplates"]
    ),

    // MARK: The command-line tool

    .executableTarget(
      name: "SaneHostsCLI",
      dependencies: [
        "LeanICUData",
        "SystemExtras",
        "Locking",
        "Files",
        "Blocklists",
        "Traffic",
        "Catalog",
        "Downloads",
        "Loading",
        "Store",
        "Updates",
        "Apply",
        "BlockerTest",
        "DNS",
        "Pihole",
        "Dashboard",
        "UseCases",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: executableSwiftSettings,
      linkerSettings: executableLinkerSettings
    ),

    /// Compile speed and memory on real and synthetic lists: `swift run -c release sanehosts-bench`.
    .executableTarget(
      name: "Benchmarks",
      path: "Benchmarks",
      swiftSettings: executableSwiftSettings,
      linkerSettings: executableLinkerSettings
    ),

    // MARK: Test support and tests

    /// Fakes and fixture servers shared by the test targets.
    .target(
      name: "TestSupport",
      dependencies: [
        "Locking",
        "Apply",
        "DNS",
        "Downloads",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      path: "Tests/TestSupport",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "LockingTests",
      dependencies: ["Locking"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "LoadingTests",
      dependencies: [
        "Locking", "Loading", "TestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "DownloadsTests",
      dependencies: [
        "Downloads", "Files", "TestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BlocklistsTests",
      dependencies: ["Blocklists", "Files", "TestSupport"],
      exclude: ["Resources"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CatalogTests",
      dependencies: ["Catalog", "Blocklists"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "Locking",
        "Store", "Catalog", "Blocklists", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "UpdatesTests",
      dependencies: [
        "Locking", "Loading",
        "Updates", "Store", "Downloads", "Blocklists", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FilesTests",
      dependencies: ["Files", "SystemExtras", "TestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BlockerTestTests",
      dependencies: [
        "Locking",
        "BlockerTest", "Blocklists", "Store", "DNS", "TestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PiholeTests",
      dependencies: [
        "Locking", "Pihole", "TestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TrafficTests",
      dependencies: ["Traffic", "Blocklists", "TestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "UseCasesTests",
      dependencies: [
        "UseCases", "Apply", "BlockerTest", "Blocklists", "Pihole", "Store", "Traffic", "Updates", "Downloads",
        "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ApplyTests",
      dependencies: [
        "Locking", "Apply", "Blocklists", "Store", "TestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "DNSTests",
      dependencies: ["DNS", "TestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PiholeDoubleTests",
      dependencies: [
        "TestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "DashboardTests",
      dependencies: [
        "Dashboard", "Apply", "BlockerTest", "Blocklists", "DNS", "Downloads", "Loading", "Locking", "Store", "Traffic",
        "Updates",
        "UseCases", "TestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Mustache", package: "swift-mustache"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SaneHostsCLITests",
      dependencies: [
        "Locking",
        "SaneHostsCLI", "Downloads", "Store", "Updates", "Apply", "BlockerTest", "DNS", "TestSupport", "Traffic",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
  ]
)
