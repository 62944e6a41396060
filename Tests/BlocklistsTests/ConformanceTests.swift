import Blocklists
import Foundation
import Testing

/// The peers' own parsing cases (`Resources/conformance.jsonl`): lines from the test suites and parsers of
/// HostlistCompiler, AdGuard Home, Pi-hole FTL, StevenBlack's hosts and hBlock, each with the peer's
/// verdict, the verdict a standards-following parser gives (`expected`: the peer's, unless RFC 1035/1123,
/// 6761, 6762, 8375, 7686, hosts(5) or AdGuard's DNS filtering syntax says otherwise, with a note), and
/// the standard that decides it.
@Suite("Conformance: the peers' parsing cases")
struct ConformanceTests {
  /// One line's meaning: the names it blocks (with their subdomains where the format covers them), the
  /// names whose subdomains only it blocks, and the exceptions it makes.
  struct Verdict: Decodable, Equatable, CustomStringConvertible {
    var block: [String]?
    var below: [String]?
    var allow: [String]?

    /// The same verdict with empty lists as none and each list sorted.
    var normalized: Verdict {
      func clean(_ names: [String]?) -> [String]? { names.flatMap { $0.isEmpty ? nil : Set($0).sorted() } }
      return Verdict(block: clean(block), below: clean(below), allow: clean(allow))
    }

    var description: String {
      let parts = [("block", block), ("below", below), ("allow", allow)].compactMap { key, names in
        names.map { "\(key) \($0.joined(separator: ","))" }
      }
      return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
    }
  }

  struct Case: Decodable, CustomStringConvertible {
    var id, peer, source, format, line, standard, note: String
    var peerVerdict: Verdict
    var expected: Verdict

    enum CodingKeys: String, CodingKey {
      case id, peer, source, format, line, standard, note, expected
      case peerVerdict = "peer_verdict"
    }

    var description: String { "\(id) \(peer) \(line.debugDescription)" }
  }

  static let cases: [Case] = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
      path: "Resources/conformance.jsonl")
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
    let decoder = JSONDecoder()
    return text.split(separator: "\n").compactMap { try? decoder.decode(Case.self, from: Data($0.utf8)) }
  }()

  /// Where SaneHosts differs from the verdict a standard gives, on purpose, and why.
  static let differences: [String: String] = [
    "hlc-002":
      "a public suffix is kept for hosts and domains output, where blocking co.uk exactly is harmless; every format that covers subdomains leaves it out (Renderer)",
    "ftl-025":
      "`*.name` is the wildcard format's entry (hagezi's wildcard lists): the name and its subdomains; Pi-hole has no such format",
    "hb-051": "as ftl-025: the wildcard format's entry, which hBlock does not read",
  ]

  /// What SaneHosts takes from one line, read as a list of its own (format detected).
  static func ours(_ line: String) -> Verdict {
    var parser = LineParser(format: nil)
    Array(line.utf8).withUnsafeBufferPointer { parser.parse(buffer: $0) }
    let result = parser.finish()
    // A subdomains-only block of a public suffix (`||*.co.uk^`) would block every site registered under
    // it: no renderer writes it (as none writes a public suffix where it covers subdomains).
    let below = result.findings.subdomainBlocks?.map(\.text).filter { !PublicSuffixList.bundled.isPublicSuffix($0) }
    return Verdict(
      block: result.names, below: below,
      allow: result.findings.exceptions?.map(\.text)
    ).normalized
  }

  @Test("The cases are all there, their ids unique, every peer with at least 25")
  func inventory() {
    #expect(Self.cases.count >= 200, "\(Self.cases.count) cases read")
    #expect(Set(Self.cases.map(\.id)).count == Self.cases.count)
    for peer in ["HostlistCompiler", "AdGuard Home", "Pi-hole", "StevenBlack", "hBlock"] {
      #expect(Self.cases.filter { $0.peer == peer }.count >= 25, "\(peer)")
    }
    for item in Self.cases where item.expected.normalized != item.peerVerdict.normalized {
      #expect(!item.note.isEmpty && item.standard != "peer behaviour", "\(item): a difference needs its standard")
    }
  }

  @Test("Every line gives the standard's verdict, but the differences explained here")
  func verdicts() {
    var unexplained: [String] = []
    for item in Self.cases {
      let ours = Self.ours(item.line)
      let agrees = ours == item.expected.normalized
      if let reason = Self.differences[item.id] {
        #expect(!agrees, "\(item): now agrees; drop its explanation (\(reason))")
      } else if !agrees {
        unexplained.append("\(item): expected \(item.expected.normalized), ours \(ours) [\(item.standard)]")
      }
    }
    #expect(unexplained.isEmpty, "\(unexplained.count) unexplained:\n\(unexplained.joined(separator: "\n"))")
  }

  @Test("Agreement with the peers is at least 95 % once the cases a standard decides against them are set aside")
  func agreement() {
    let comparable = Self.cases.filter { $0.expected.normalized == $0.peerVerdict.normalized }
    let agreeing = comparable.filter { Self.ours($0.line) == $0.peerVerdict.normalized }
    let share = Double(agreeing.count) / Double(max(1, comparable.count))
    print("conformance: \(agreeing.count)/\(comparable.count) agree (\(String(format: "%.1f", share * 100)) %)")
    #expect(share >= 0.95, "\(agreeing.count) of \(comparable.count)")
  }
}
