import Apply
import Foundation
import TestSupport
import Testing

/// The Debian package, end to end: `scripts/test-package.sh` builds it from the release binary, lints it,
/// installs it with apt into a clean Debian 12 root made by debootstrap (cached in
/// /var/cache/sanehosts-tests, or $SANEHOSTS_DEBOOTSTRAP_CACHE), runs the commands and the dashboard as its
/// unit does there, then removes and purges it. The first run bootstraps the root from the mirror.
@Suite(
  "The Debian package installs, runs, removes and purges in a clean Debian 12",
  .enabled(
    if: PackageInstall.isAvailable,
    "needs root, debootstrap (apt-get install debootstrap) and the release binary in SANEHOSTS_TEST_EXECUTABLE (scripts/test.sh sets it)"
  ))
struct PackageInstallTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test(
    "scripts/test-package.sh: apt installs the package, the commands and the dashboard work, remove keeps only the data, purge leaves nothing",
    .timeLimit(.minutes(15)))
  func installRemovePurge() async throws {
    let script = Self.root.appending(path: "scripts/test-package.sh").path
    let binary = try #require(PackageInstall.releaseBinary)
    let result = try await ProcessRunner().run("/bin/bash", [script, "--binary", binary])
    print("---- scripts/test-package.sh\n\(result.combined)")
    #expect(result.status == 0, "\(result.combined)")
    #expect(result.standardOutput.contains("==> Passed"))
    #expect(result.standardOutput.contains("sanehosts-serve.service"))
    #expect(result.standardOutput.contains("GET /metrics: 200") || result.standardOutput.contains("GET /: 200"))
  }
}

/// What the package test needs (apart from its suite: a suite's trait cannot name the suite itself).
enum PackageInstall {
  /// The release binary scripts/test.sh builds: the debug one links the toolchain's shared Swift runtime,
  /// which no Debian package provides.
  static var releaseBinary: String? {
    ProcessInfo.processInfo.environment["SANEHOSTS_TEST_EXECUTABLE"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Root (debootstrap, chroot and mounts need it), debootstrap, and the release binary.
  static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/debootstrap") && releaseBinary != nil
  }
}
