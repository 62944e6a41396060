import Foundation
import TestSupport
import Testing

@testable import Traffic

@Suite("A log and its rotated copies")
struct LogFilesTests {
  @Test("logrotate's numbers and dateext, gzip'd or not, oldest first, the file itself last; others left alone")
  func order() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for name in [
      "dnsmasq.log", "dnsmasq.log.1", "dnsmasq.log.2.gz", "dnsmasq.log.10.gz", "dnsmasq.log-20261120.gz",
      "dnsmasq.log-20261121", "dnsmasq.log.old", "dnsmasq.logs", "other.log",
    ] {
      try Data().write(to: directory.file(name))
    }
    let files = LogFiles.rotation(of: directory.file("dnsmasq.log").path).map {
      URL(fileURLWithPath: $0).lastPathComponent
    }
    #expect(
      files == [
        "dnsmasq.log-20261120.gz", "dnsmasq.log-20261121", "dnsmasq.log.10.gz", "dnsmasq.log.2.gz", "dnsmasq.log.1",
        "dnsmasq.log",
      ])
    #expect(LogFiles.rotation(of: directory.file("none.log").path).isEmpty)
  }
}
