import Apply
import Foundation
import TestSupport
import Testing

/// `Sources/LeanICUData/icudt76l-lean.dat`, the ICU data the release binary carries instead of the
/// toolchain's 34 MB: `scripts/lean-icu.py` writes it from the toolchain's own.
@Suite("The lean ICU data")
struct LeanICUDataTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The toolchain's static Foundation ICU archive, found from `swift` on PATH.
  static var archive: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
      let swift = URL(fileURLWithPath: "\(directory)/swift").resolvingSymlinksInPath()
      guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
      let archive = swift.deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "lib/swift_static/linux/lib_FoundationICU.a").path
      return FileManager.default.fileExists(atPath: archive) ? archive : nil
    }
    return nil
  }

  @Test(
    "The committed data is what the script writes from this toolchain, and keeps English and time zones",
    .enabled(if: archive != nil, "the toolchain's static Foundation (lib_FoundationICU.a) is not installed"))
  func regenerated() async throws {
    try await TemporaryDirectory.with { directory in
      let output = directory.file("lean.dat").path
      let result = try await ProcessRunner().run(
        "/usr/bin/python3", [Self.root.appending(path: "scripts/lean-icu.py").path, "--output", output])
      #expect(result.status == 0, "\(result.combined)")
      let committed = try Data(contentsOf: Self.root.appending(path: "Sources/LeanICUData/icudt76l-lean.dat"))
      let written = try Data(contentsOf: URL(fileURLWithPath: output))
      #expect(written == committed, "run scripts/lean-icu.py to update Sources/LeanICUData/icudt76l-lean.dat")
      #expect(committed.count < 6_000_000)
      let text = String(decoding: committed, as: UTF8.self)
      for item in ["/en.res", "/root.res", "/zoneinfo64.res", "/nfkc.nrm"] { #expect(text.contains(item), "\(item)") }
    }
  }

  @Test("The binary under test formats dates and numbers and matches expressions with the data it carries")
  func formats() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let allow = cli.directory.file("allow.txt")
    try Data("/^ads[0-9]+\\.shop\\.website$/\n".utf8).write(to: allow)
    let list = cli.directory.file("list.txt")
    try Data(
      (["0.0.0.0 ads1.shop.website", "0.0.0.0 tracker.shop.website"] + (0..<1500).map { "0.0.0.0 n\($0).blog" })
        .joined(separator: "\n").utf8
    ).write(to: list)
    let compiled = try await cli.run(
      "compile", list.path, "--allow", allow.path, "-o", cli.directory.file("out").path)
    #expect(compiled.status == 0, "\(compiled.standardError)")
    let output = try String(contentsOf: cli.directory.file("out"), encoding: .utf8)
    #expect(!output.contains("ads1.shop.website") && output.contains("tracker.shop.website"))
    // The header's date is an ISO date, and the count is grouped in thousands.
    #expect(output.range(of: #"20\d\d-\d\d-\d\d"#, options: .regularExpression) != nil)
    #expect(compiled.standardError.contains("1,501") || output.contains("1,501"), "\(compiled.standardError)")
  }
}
