import Foundation
import TestSupport
import Testing

/// A command whose reader goes away (`sanehosts update | head -1`) ends as `cat`, `grep` and `git` do:
/// no message, no trace, status 141 (or 0 when it had written everything before), and nothing left
/// behind: no `.part` file, nothing in `staging/`, no process id in `update.lock`.
@Suite("A closed pipe ends every command quietly", .serialized)
struct ClosedPipeTests {
  /// A store with three local sources of 60,000 names each, updated once.
  static func store() async throws -> (StoreCLI, [URL]) {
    let cli = try StoreCLI()
    var lists: [URL] = []
    for index in 0..<3 {
      let list = cli.directory.file("list\(index).txt")
      let names = (0..<60_000).map { "n\($0).l\(index).website" }.joined(separator: "\n")
      try Data(names.utf8).write(to: list)
      try await cli.ok("sources", "add", list.path, "--name", "list\(index)")
      lists.append(list)
    }
    try await cli.ok("update", "--quiet")
    return (cli, lists)
  }

  /// Runs `sanehosts ARGUMENTS | head -1` in bash; the command's status and standard error.
  static func headOne(_ cli: StoreCLI, _ arguments: [String]) async throws -> (status: Int32, error: String) {
    let runner = try cli.runner
    let quoted = ([runner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let script = "\(quoted) 2>\"$ERR\" | head -1 >/dev/null; exit ${PIPESTATUS[0]}"
    let errorFile = cli.directory.file("stderr-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.environment = ProcessInfo.processInfo.environment.merging(runner.environment) { $1 }.merging([
      "ERR": errorFile.path
    ]) { $1 }
    process.standardInput = FileHandle.nullDevice
    try process.run()
    await onOwnThread { process.waitUntilExit() }
    let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    return (process.terminationStatus, error)
  }

  /// Nothing an interrupted update leaves: partial downloads, staged work, a process id in the lock.
  static func leftovers(_ cli: StoreCLI) -> [String] {
    let data = cli.dataDirectory
    var found: [String] = []
    let files = FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String } ?? []
    found += files.filter { $0.hasSuffix(".part") }
    let staging = (try? FileManager.default.contentsOfDirectory(atPath: data.appending(path: "staging").path)) ?? []
    found += staging.map { "staging/\($0)" }
    let lock = (try? String(contentsOf: data.appending(path: "update.lock"), encoding: .utf8)) ?? ""
    if !lock.isEmpty { found.append("update.lock holds \(lock)") }
    return found
  }

  @Test(
    "Regression: every command that prints, piped into head -1, exits 141 or 0 with no message (update crashed: exit 132, “Fatal error: 'try!' … Broken pipe”, leaving .part files, staging and a pid in update.lock; fetch printed NSCocoaErrorDomain 512)"
  )
  func everyCommand() async throws {
    let (cli, lists) = try await Self.store()
    defer { cli.remove() }
    let commands: [[String]] = [
      ["update", "--force"], ["update", "--force", "--json"], ["status"], ["status", "--json"], ["sources", "list"],
      ["sources", "list", "--json"], ["sources", "overlap"], ["catalog"], ["catalog", "--json"],
      ["compile", lists[0].path, lists[1].path], ["compile"], ["compile", "--format", "rpz"], ["fetch", lists[2].path],
      ["why", "n1.l0.website"], ["profile", "list"], ["profile", "show", "default"], ["history"], ["registry", "list"],
      ["allow", "list"], ["--help"], ["help", "apply"], ["apply", "--help"], ["--version"],
    ]
    for command in commands {
      let (status, error) = try await Self.headOne(cli, command)
      #expect(status == 141 || status == 0, "\(command): status \(status): \(error)")
      #expect(!error.contains("Fatal error") && !error.contains("Error Domain"), "\(command): \(error)")
      #expect(!error.contains("Broken pipe") && !error.contains("Error:"), "\(command): \(error)")
      #expect(Self.leftovers(cli).isEmpty, "\(command): \(Self.leftovers(cli))")
    }
    // The store is as good as before: the next update runs.
    let after = try await cli.runner.run(["update", "--force", "--quiet"])
    #expect(after.status == 0, "\(after.standardError)")
  }

  @Test("An update whose reader goes away mid-run stops, cleans up and exits 141 without a word, many times over")
  func updateRepeatedly() async throws {
    let (cli, _) = try await Self.store()
    defer { cli.remove() }
    for _ in 0..<5 {
      let (status, error) = try await Self.headOne(cli, ["update", "--force"])
      #expect(status == 141, "\(error)")
      #expect(error.isEmpty, "\(error)")
      #expect(Self.leftovers(cli).isEmpty, "\(Self.leftovers(cli))")
    }
  }
}
