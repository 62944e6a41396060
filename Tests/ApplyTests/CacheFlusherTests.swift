import Apply
import Foundation
import Locking
import TestSupport
import Testing

@Suite("Flushing DNS caches")
struct CacheFlusherTests {
  /// Records the commands it is asked to run and answers with a chosen status.
  final class Recorder: ProcessRunning {
    let calls = Locked<[[String]]>([])
    let status: Int32
    init(status: Int32 = 0) { self.status = status }
    func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
      calls.withLock { $0.append([executable] + arguments) }
      return ProcessOutput(status: status, standardError: status == 0 ? "" : "refused")
    }
  }

  @Test("Nothing running: nothing flushed, nothing run, and a plain summary")
  func nothingRunning() async {
    let recorder = Recorder()
    let report = await CacheFlusher(runner: recorder, processes: { [] }, signal: { _ in true }).flush()
    #expect(report == CacheFlusher.Report())
    #expect(recorder.calls.withLock { $0 }.isEmpty)
    #expect(report.summary == "no DNS cache is running (nothing to flush)")
  }

  @Test("resolved, nscd and two dnsmasq processes are each flushed their own way")
  func everything() async {
    let recorder = Recorder()
    let signalled = Locked<[Int32]>([])
    let flusher = CacheFlusher(
      runner: recorder,
      processes: {
        [
          .init(pid: 10, name: "systemd-resolve"), .init(pid: 11, name: "nscd"), .init(pid: 12, name: "dnsmasq"),
          .init(pid: 13, name: "dnsmasq"), .init(pid: 14, name: "bash"),
        ]
      },
      signal: { pid in
        signalled.withLock { $0.append(pid) }
        return true
      })
    let report = await flusher.flush()
    #expect(recorder.calls.withLock { $0 } == [["resolvectl", "flush-caches"], ["nscd", "--invalidate=hosts"]])
    #expect(signalled.withLock { $0 } == [12, 13])
    #expect(report.flushed.count == 4 && report.failed.isEmpty)
    #expect(report.summary.hasPrefix("flushed systemd-resolved (resolvectl flush-caches), nscd"))
  }

  @Test("A failing flush is reported, not thrown")
  func failure() async {
    let report = await CacheFlusher(
      runner: Recorder(status: 1), processes: { [.init(pid: 11, name: "nscd")] }, signal: { _ in false }
    ).flush()
    #expect(report.flushed.isEmpty)
    #expect(report.failed == ["nscd (nscd --invalidate=hosts exited 1: refused)"])
  }

  @Test("Processes are read from a /proc-like directory")
  func procReading() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (pid, name) in [("42", "dnsmasq\n"), ("7", "nscd\n")] {
      try FileManager.default.createDirectory(at: directory.file(pid), withIntermediateDirectories: true)
      try Data(name.utf8).write(to: directory.file("\(pid)/comm"))
    }
    try FileManager.default.createDirectory(at: directory.file("self-not-a-pid"), withIntermediateDirectories: true)
    let found = Set(CacheFlusher.runningProcesses(procRoot: directory.url.path))
    #expect(found == [.init(pid: 42, name: "dnsmasq"), .init(pid: 7, name: "nscd")])
    #expect(CacheFlusher.runningProcesses().contains { $0.pid == getpid() })
  }
}
