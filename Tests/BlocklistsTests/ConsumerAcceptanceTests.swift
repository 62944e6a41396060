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
    0.0.0.0 \(Self.name(length: 253))
    0.0.0.0 \(Self.name(length: Renderer.rpzNameLimit))
    0.0.0.0 \(Self.name(length: Renderer.rpzNameLimit + 1))
    """

  /// A valid name of `length` characters, in labels of 63 under `.com`.
  static func name(length: Int) -> String {
    var labels: [String] = []
    var left = length - 4
    while left > 0 {
      let label = min(63, left)
      labels.append(String(repeating: Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(labels.count))), count: label))
      left -= label + 1
    }
    let name = labels.joined(separator: ".") + ".com"
    precondition(name.count == length, "\(name.count) ≠ \(length)")
    return name
  }

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

  func write(_ list: CompiledList, _ format: OutputFormat, namesPerLine: Int = 1, to url: URL) throws {
    try OutputFile.write(url.path) { (sink) throws(CompileError) in
      try Renderer(format: format, namesPerLine: namesPerLine).render(list, to: &sink)
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

  @Test("dnsmasq accepts the drop-in's packed lines (many names an address=, up to 1,000 bytes a line)")
  func dnsmasqPacked() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var sources = [ListSource.text(text, name: "odd")]
    // Enough names for many full lines, and a long name at a line's end.
    sources.append(.text((0..<3000).map { "tracker-\($0).example.net" }.joined(separator: "\n"), name: "many"))
    let list = try await Compiler().compile(sources)
    try write(list, .dnsmasq, namesPerLine: .max, to: directory.file("block.conf"))
    let text = try String(contentsOf: directory.file("block.conf"), encoding: .utf8)
    #expect(text.split(separator: "\n").allSatisfy { $0.utf8.count + 1 <= Renderer.dnsmasqLineLimit })
    let (status, output) = try check("dnsmasq", ["--test", "--conf-file=\(directory.file("block.conf").path)"])
    #expect(status == 0, "\(output)")
  }

  @Test("named-checkzone loads the RPZ zone")
  func rpz() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await list()
    try write(list, .rpz, to: directory.file("block.rpz"))
    // A zone name as long as the RPZ targets' (`sanehosts.rpz`): names too long for it are left out, or
    // the whole zone would be refused ("ran out of space", seen with a valid 253-character name).
    let (status, output) = try check("named-checkzone", ["rpz.sanehosts", directory.file("block.rpz").path])
    #expect(status == 0, "\(output)")
    #expect(output.contains("OK"))
    let zone = try String(contentsOf: directory.file("block.rpz"), encoding: .utf8)
    #expect(zone.contains("*.\(Self.name(length: Renderer.rpzNameLimit)) CNAME ."))
    #expect(!zone.contains(Self.name(length: Renderer.rpzNameLimit + 1)))
    #expect(zone.contains("too long for the zone left out"))
  }
}
