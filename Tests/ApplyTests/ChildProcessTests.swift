import Apply
import Foundation
import TestSupport
import Testing

@Suite("Child processes")
struct ChildProcessTests {
  @Test("A program starts with no signal blocked or ignored, even from a concurrency thread that blocks them")
  func signalsReset() async throws {
    // grep reads its own masks (a shell reading its own would race with it blocking signals to fork).
    let output = try await ProcessRunner().run("grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"])
    let masks = output.standardOutput.split(separator: "\n").compactMap { line in
      line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) }
    }
    #expect(masks.count == 2, "\(output.standardOutput)")
    #expect(masks.first == 0, "blocked: \(output.standardOutput)")
    // Signals 1 to 31 (SIGPIPE among them) are handled by default; glibc keeps two real-time signals of
    // its own, above them.
    #expect(masks.last.map { $0 & 0x7FFF_FFFF } == 0, "ignored: \(output.standardOutput)")
  }

  @Test("SIGHUP and SIGTERM reach the program; its status says which signal ended it")
  func signals() async throws {
    for signal in [SIGHUP, SIGTERM] {
      let child = try ChildProcess("/bin/sleep", ["30"], standardOutput: 2, standardError: 2)
      #expect(!child.hasExited)
      child.send(signal)
      #expect(await child.status() == 128 + signal)
      #expect(child.hasExited)
      // Once it has ended its id may be another process's: nothing is sent.
      child.send(SIGKILL)
    }
  }

  @Test("Output goes to the descriptors given; standard input is empty")
  func descriptors() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("out")
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #expect(descriptor >= 0)
    let child = try ChildProcess(
      "/bin/sh", ["-c", "cat; echo out; echo err >&2; exit 4"], standardOutput: descriptor, standardError: descriptor)
    close(descriptor)
    #expect(await child.status() == 4)
    #expect(try String(contentsOf: file, encoding: .utf8) == "out\nerr\n")
  }

  @Test("A program that cannot be started is an error naming it")
  func launchFailure() throws {
    #expect(throws: ProcessRunner.Error.launchFailed("/nonexistent/program", detail: "No such file or directory")) {
      try ChildProcess("/nonexistent/program", [], standardOutput: 2, standardError: 2)
    }
  }

  @Test("Several waiters all get the status")
  func severalWaiters() async throws {
    let child = try ChildProcess("/bin/sh", ["-c", "exit 9"], standardOutput: 2, standardError: 2)
    async let first = child.status()
    async let second = child.status()
    #expect(await [first, second] == [9, 9])
    #expect(await child.status() == 9)
  }
}
