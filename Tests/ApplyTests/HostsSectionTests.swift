import Apply
import Blocklists
import Testing

@Suite("The hosts section's lines")
struct HostsSectionTests {
  static func list(_ text: String) async throws -> CompiledList {
    try await Compiler().compile([.text(text, name: "test")], rules: RuleSet())
  }

  @Test("One line per name after a dated-free header; same names give the same lines")
  func lines() async throws {
    let list = try await Self.list("ads.website\ntracker.website\nads.website\n")
    let lines = try await HostsSection.lines(for: list, profile: "default")
    #expect(
      lines == ["# Profile default: 2 names from 1 source(s): test", "0.0.0.0 ads.website", "0.0.0.0 tracker.website"])
    #expect(try await HostsSection.lines(for: list, profile: "default") == lines)
    #expect(HostsSection.firstInvalidLine(lines) == nil)
  }

  @Test("Both families, and several names per line")
  func addressesAndGrouping() async throws {
    let list = try await Self.list("a.website\nb.website\nc.website\n")
    let both = try await HostsSection.lines(for: list, profile: "p", address: .both)
    #expect(both.filter { $0.hasPrefix("0.0.0.0 ") }.count == 3)
    #expect(both.filter { $0.hasPrefix(":: ") }.count == 3)
    let grouped = try await HostsSection.lines(for: list, profile: "p", namesPerLine: 2)
    #expect(grouped.dropFirst() == ["0.0.0.0 a.website b.website", "0.0.0.0 c.website"])
  }

  @Test("Validation names the first line that would not parse")
  func validation() {
    #expect(HostsSection.firstInvalidLine(["# c", "0.0.0.0 ok.website", "0.0.0.0"])?.line == 3)
    #expect(HostsSection.firstInvalidLine(["nonsense ok.website"])?.line == 1)
    #expect(HostsSection.firstInvalidLine(["0.0.0.0 bad name!"])?.line == 1)
    #expect(HostsSection.firstInvalidLine([":: a.website b_c.website"]) == nil)
    // The same over bytes: line numbers, the last line without a newline, an empty body, a capital.
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    #expect(HostsSection.firstInvalidLine(body: bytes("# c\n0.0.0.0 ok.website\n0.0.0.0\n"))! == (3, "0.0.0.0"))
    #expect(
      HostsSection.firstInvalidLine(body: bytes("0.0.0.0 a.website\n0.0.0.0 Bad.website"))! == (
        2, "0.0.0.0 Bad.website"
      ))
    #expect(HostsSection.firstInvalidLine(body: bytes("0.0.0.0 -a.website\n"))?.line == 1)
    #expect(HostsSection.firstInvalidLine(body: []) == nil)
    #expect(HostsSection.firstInvalidLine(body: bytes("0.0.0.0 a.website\n:: a.website\n")) == nil)
  }

  @Test("The body is the lines as bytes, each ending in a newline; its last name and first bad line are found")
  func body() async throws {
    let list = try await Self.list("ads.website\ntracker.website\nads.website\n")
    for (address, perLine) in [(Renderer.HostsAddress.ipv4, 1), (.both, 1), (.ipv4, 2)] {
      let lines = try await HostsSection.lines(for: list, profile: "p", address: address, namesPerLine: perLine)
      let body = try await HostsSection.body(for: list, profile: "p", address: address, namesPerLine: perLine)
      #expect(body == Array((lines.joined(separator: "\n") + "\n").utf8))
      #expect(HostsSection.firstInvalidLine(body: body) == nil)
    }
    let body = try await HostsSection.body(for: list, profile: "p")
    #expect(HostsSection.lastName(in: body) == "tracker.website")
    let file = try ManagedSection.apply(body: body, to: Array("127.0.0.1 localhost\n".utf8))
    #expect(HostsSection.lastName(in: file) == "tracker.website")
    #expect(HostsSection.lastName(in: Array("# only a comment\n".utf8)) == nil)
    let bad = Array("# c\n0.0.0.0 ok.website\n0.0.0.0 bad name!\n".utf8)
    #expect(HostsSection.firstInvalidLine(body: bad)?.line == 3)
    #expect(HostsSection.firstInvalidLine(body: bad)?.text == "0.0.0.0 bad name!")
  }
}
