import Foundation
import TestSupport
import Testing

/// Runs `sanehosts` with its data directory in a temporary folder.
struct StoreCLI {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory(prefix: "sanehosts-cli") }

  var dataDirectory: URL { directory.file("data") }

  var runner: CommandRunner {
    get throws {
      var runner = try CommandRunner()
      runner.environment = ["SANEHOSTS_HOME": dataDirectory.path, "TERM": "dumb"]
      return runner
    }
  }

  /// Runs a command and returns its result.
  func run(_ arguments: String..., whileRunning: @Sendable (Process) async throws -> Void = { _ in })
    async throws -> CommandRunner.Result
  {
    try await runner.run(arguments, whileRunning: whileRunning)
  }

  /// Runs a command that must succeed, returning its standard output.
  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
    let result = try await runner.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
    return result.standardOutput
  }

  /// Parses JSON output.
  func json(_ arguments: String...) async throws -> Any {
    let result = try await runner.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
  }

  func remove() { directory.remove() }
}
