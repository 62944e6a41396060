import Apply
import Foundation
import TestSupport
import Testing

@Suite("Running programs")
struct ProcessRunnerTests {
  @Test("A program's output and status come back")
  func echo() async throws {
    let output = try await ProcessRunner().run("/bin/echo", ["hello", "world"])
    #expect(output == ProcessOutput(status: 0, standardOutput: "hello world\n", standardError: ""))
  }

  @Test("A bare name is found on PATH")
  func bareName() async throws {
    let output = try await ProcessRunner().run("sh", ["-c", "echo out; echo err >&2; exit 3"])
    #expect(output.status == 3)
    #expect(output.standardOutput == "out\n")
    #expect(output.standardError == "err\n")
    #expect(output.combined == "out\nerr")
  }

  @Test("A missing program is a named error")
  func missing() async throws {
    await #expect(throws: ProcessRunner.Error.notFound("sanehosts-no-such-program")) {
      try await ProcessRunner().run("sanehosts-no-such-program", [])
    }
    await #expect(throws: ProcessRunner.Error.notFound("/nonexistent/tool")) {
      try await ProcessRunner().run("/nonexistent/tool", [])
    }
    let message = ProcessRunner.Error.notFound("dnsmasq").errorDescription ?? ""
    #expect(message.contains("“dnsmasq”"))
    #expect(ProcessRunner.Error.notFound("dnsmasq").recoverySuggestion?.contains("Install") == true)
  }

  @Test("A program ended by a signal reports 128 plus the signal, as a shell does")
  func signal() async throws {
    let output = try await ProcessRunner().run("/bin/sh", ["-c", "kill -TERM $$"])
    #expect(output.status == 128 + 15)
  }

  @Test("Large output on both pipes does not block the program")
  func largeOutput() async throws {
    let output = try await ProcessRunner().run(
      "/bin/sh", ["-c", "head -c 300000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2"])
    #expect(output.status == 0)
    #expect(output.standardOutput.count == 300_000)
    #expect(output.standardError.count == 300_000)
  }

  @Test("The program gets no standard input")
  func noInput() async throws {
    let output = try await ProcessRunner().run("/bin/cat", [])
    #expect(output == ProcessOutput(status: 0))
  }

  @Test("which searches PATH, then /usr/sbin and /sbin")
  func which() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let tool = directory.file("sanehosts-tool")
    try Data("#!/bin/sh\n".utf8).write(to: tool)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
    try Data().write(to: directory.file("not-executable"))
    #expect(ProcessRunner.which("sanehosts-tool", path: "/nonexistent:\(directory.url.path)") == tool.path)
    #expect(ProcessRunner.which("not-executable", path: directory.url.path) == nil)
    #expect(ProcessRunner.which("sh", path: "/bin") == "/bin/sh")
    #expect(ProcessRunner.which("sanehosts-no-such-program") == nil)
    #expect(ProcessRunner.which("") == nil)
    #expect(ProcessRunner.which(tool.path, path: "") == tool.path)
    // An empty PATH still finds system tools.
    let inSbin = try #require(
      FileManager.default.contentsOfDirectory(atPath: "/usr/sbin").sorted().first {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/\($0)")
      })
    #expect(ProcessRunner.which(inSbin, path: "") != nil)
  }

  @Test("Cancelling the task ends the program")
  func cancel() async throws {
    let status: Int32 = try await withThrowingTaskGroup(of: Int32.self) { group in
      group.addTask { try await ProcessRunner().run("/bin/sleep", ["30"]).status }
      group.cancelAll()
      return try await group.next() ?? -1
    }
    #expect(status == 128 + 15)
  }
}
