import Blocklists
import Foundation
import TestSupport
import Testing

/// Rendered outputs are checked by the programs that will load them: unbound, dnsmasq and BIND's
/// zone checker (Debian packages unbound, dnsmasq-base and bind9-utils, installed by scripts/test.sh).
@Suite("Outputs accepted by the real DNS servers")
struct ConsumerAcceptanceTests {
  /// Odd but valid names, and the real mix when it is there.
  let text = """
    0.0.0.0 _dmarc.tracker.example.com
    0.0.0.0 1st-ad_server.example.net
    0.0.0.0 xn--mnchen-3ya.de
    0.0.0.0 \(String(repeating: "a", count: 63)).example.org
    0.0.0.0 servebbs.net
    ||ads.example.co.uk^
    """

  func list() async throws -> CompiledList {
    var sources = [ListSource.text(text, name: "odd")]
    if let data = sharedData {
      sources.append(.file(data.appending(path: "blocklists/easylist.hosts.txt").path))
      sources.append(.file(data.appending(path: "blocklists/hagezi-personal.hosts.txt").path))
    }
    return try await Compiler().compile(sources)
  }

  /// Runs a checker; a missing program fails the test with what to install.
  func check(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
    guard
      let path = ["/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/"].map({ $0 + program })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      Issue.record(
        "\(program) is not installed: run ./scripts/test.sh, which installs unbound, dnsmasq-base and bind9-utils")
      return (-1, "")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  func write(_ list: CompiledList, _ format: ListFormat, to url: URL) throws {
    try OutputFile.write(url.path) { (sink) throws(CompileError) in try Renderer(format: format).render(list, to: &sink)
    }
  }

  @Test("unbound-checkconf accepts the unbound output")
  func unbound() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try write(try await list(), .unbound, to: directory.file("block.conf"))
    let main = directory.file("unbound.conf")
    try Data("server:\n  chroot: \"\"\n  username: \"\"\n  include: \"\(directory.file("block.conf").path)\"\n".utf8)
      .write(to: main)
    let (status, output) = try check("unbound-checkconf", [main.path])
    #expect(status == 0, "\(output)")
  }

  @Test("dnsmasq accepts the dnsmasq output, and the hosts output as addn-hosts")
  func dnsmasq() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await list()
    try write(list, .dnsmasq, to: directory.file("block.conf"))
    try write(list, .hosts, to: directory.file("block.hosts"))
    let (status, output) = try check("dnsmasq", ["--test", "--conf-file=\(directory.file("block.conf").path)"])
    #expect(status == 0, "\(output)")
    let (hostsStatus, hostsOutput) = try check(
      "dnsmasq", ["--test", "--conf-file=/dev/null", "--addn-hosts=\(directory.file("block.hosts").path)"])
    #expect(hostsStatus == 0, "\(hostsOutput)")
  }

  @Test("named-checkzone loads the RPZ zone")
  func rpz() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await list()
    try write(list, .rpz, to: directory.file("block.rpz"))
    let (status, output) = try check("named-checkzone", ["rpz.sanehosts", directory.file("block.rpz").path])
    #expect(status == 0, "\(output)")
    #expect(output.contains("OK"))
  }
}
