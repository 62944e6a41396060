import Dispatch
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The dashboard in a real browser: `Tests/Browser/dashboard_test.py` drives a headless Chromium through
/// `sanehosts serve` (sources, an update cancelled and run again, a DNS blocker test against a real dnsmasq,
/// history, apply to a temporary hosts file, hostile list text, pages without JavaScript).
///
/// It needs Debian's chromium, chromium-driver and dnsmasq-base and Selenium from PyPI; CI installs them
/// (`scripts/install-browser-deps.sh`), so a missing one fails the test naming what to install. Screenshots
/// of every page land in `.build/screenshots`.
@Suite("Dashboard in a real browser")
struct BrowserTests {
  /// The repository: three levels above this file (Tests/DashboardTests/BrowserTests.swift).
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test(
    "Chromium drives sanehosts serve: sources, update and cancel, blocker test, history, apply, inert list text, no JavaScript",
    .timeLimit(.minutes(5)))
  func dashboardInChromium() async throws {
    let python = try RequiredTool.path("python3", package: "python3")
    _ = try RequiredTool.path("chromium", package: "chromium")
    _ = try RequiredTool.path("chromedriver", package: "chromium-driver")
    _ = try RequiredTool.path("dnsmasq", package: "dnsmasq-base")
    let sanehosts = try CommandRunner().executable
    let root = Self.repositoryRoot
    let script = root.appending(path: "Tests/Browser/dashboard_test.py")
    try #require(FileManager.default.fileExists(atPath: script.path), "\(script.path) is missing")

    let selenium = try await Self.run(python, ["-c", "import selenium"], in: root)
    try #require(
      selenium.status == 0,
      """
      Selenium is not importable by \(python): run scripts/install-browser-deps.sh \
      (python3 -m pip install selenium), as CI does.
      \(selenium.standardError)
      """)

    let result = try await Self.run(
      python, [script.path], in: root,
      environment: [
        "SANEHOSTS_BIN": sanehosts.path,
        "SCREENSHOT_DIR": root.appending(path: ".build/screenshots").path,
        "PYTHONUNBUFFERED": "1",
      ])
    #expect(
      result.status == 0,
      """
      Tests/Browser/dashboard_test.py exited with status \(result.status).
      --- stdout ---
      \(result.standardOutput)
      --- stderr ---
      \(result.standardError)
      """)
  }

  /// Runs a program to the end without holding a thread of the cooperative pool: the pipes are drained
  /// on Dispatch threads and the exit arrives through the termination handler. Cancelling (the time limit)
  /// interrupts it with SIGINT, which the script turns into a clean shutdown of its browser and servers.
  static func run(
    _ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) async throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    let (exits, exit) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
    process.terminationHandler = { finished in
      exit.yield(finished.terminationStatus)
      exit.finish()
    }
    try process.run()
    let pid = process.processIdentifier
    async let outData = readAll(output.fileHandleForReading)
    async let errData = readAll(error.fileHandleForReading)
    let status = await withTaskCancellationHandler {
      var status: Int32 = -1
      for await code in exits { status = code }
      return status
    } onCancel: {
      kill(pid, SIGINT)
    }
    let (out, err) = await (outData, errData)
    return Output(
      status: status, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }

  /// What a finished program left behind.
  struct Output: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  private static func readAll(_ handle: FileHandle) async -> Data {
    await onOwnThread { (try? handle.readToEnd()) ?? Data() }
  }
}
