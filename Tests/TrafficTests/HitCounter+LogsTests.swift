import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Traffic

@Suite("Counting a log and its rotated copies")
struct HitCounterLogsTests {
  @Test(
    "The gzip'd and plain copies and the file itself, oldest first; their damaged lines counted; no file is an error")
  func rotation() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await HitCounterTests.compiled()
    var counter = HitCounter(
      attribution: Attribution(compiled: list, format: .dnsmasq), since: nil, byClient: false)
    let line = { (name: String) in "Nov 27 05:30:40 dnsmasq[1]: query[A] \(name) from 10.0.0.2\n" }
    try Data((line("ads.website") + line("ads.website")).utf8).write(to: directory.file("dnsmasq.log.2"))
    let gzip = try RequiredTool.path("gzip", package: "gzip")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gzip)
    process.arguments = [directory.file("dnsmasq.log.2").path]
    try process.run()
    process.waitUntilExit()
    try Data((line("tracker.website") + "garbage\n").utf8).write(to: directory.file("dnsmasq.log.1"))
    try Data(line("clean.website").utf8).write(to: directory.file("dnsmasq.log"))
    let files = try counter.read(LogSource(kind: .dnsmasq, path: directory.file("dnsmasq.log").path))
    #expect(
      files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["dnsmasq.log.2.gz", "dnsmasq.log.1", "dnsmasq.log"])
    let report = counter.report(profile: "p", server: "dnsmasq", sources: files, top: 5)
    #expect(report.queries == 4 && report.blocked == 3)
    #expect(report.findings.lines == 5 && report.findings.skipped == ["no timestamp": 1])
    #expect(throws: TrafficError.self) {
      try counter.read(LogSource(kind: .dnsmasq, path: directory.file("none.log").path))
    }
  }

  @Test("Regression: another server's log named as unbound's says which server's it is (it said only “No query”)")
  func anotherServersLog() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await HitCounterTests.compiled()
    var counter = HitCounter(attribution: Attribution(compiled: list, format: .unbound), since: nil, byClient: false)
    let log = directory.file("queries.log")
    try Data("Nov 27 05:30:40 dnsmasq[1]: query[A] ads.website from 10.0.0.2\n".utf8).write(to: log)
    _ = try counter.read(LogSource(kind: .unbound, path: log.path))
    let found = try #require(counter.findings.unrecognizedFiles.first)
    #expect(found.looksLike == "dnsmasq")
    #expect(
      found.description
        == "no line of \(log.path) reads as unbound's query log; it reads as dnsmasq's: --log dnsmasq:\(log.path)")
    var other = HitCounter(attribution: Attribution(compiled: list, format: .unbound), since: nil, byClient: false)
    try Data("hello\nworld\n".utf8).write(to: log)
    _ = try other.read(LogSource(kind: .unbound, path: log.path))
    #expect(other.findings.unrecognizedFiles.first?.looksLike == nil)
  }
}
