import Blocklists
import Foundation
import Testing

/// Round trips on the real public lists in `../shared/data/blocklists/` (see its SOURCES.md).
@Suite("Real lists", .enabled(if: sharedData != nil, "needs ../shared/data beside the project"))
struct RealListTests {
  let folder = sharedData?.appending(path: "blocklists")

  func names(_ file: String, format: InputFormat? = nil) async throws -> (Set<String>, CompiledList) {
    let list = try await Compiler().compile([.file(folder!.appending(path: file).path, format: format)])
    return (Set(list.allNames), list)
  }

  @Test("The six easylist files are one list: hosts = domains, and the four covering formats agree")
  func easylistFormats() async throws {
    let (hosts, hostsList) = try await names("easylist.hosts.txt")
    let (domains, _) = try await names("easylist.domains.txt")
    // 12 of easylist's names are never blocked: 8 under no public top-level domain (file names such as
    // `46186911.vtt`, `test.vast`), `youtube.local` and `www.youtube.local` (multicast DNS, RFC 6762) and
    // 2 `.onion` names (RFC 7686).
    #expect(hosts.count == 86_674 - 12)
    #expect(hosts == domains)
    let rejected = hostsList.sources[0].findings.rejected
    #expect(rejected == [.unknownTopLevelDomain: 8, .localNetworkName: 2, .reservedName: 2], "\(rejected)")
    let (wildcard, _) = try await names("easylist.wildcard.txt")
    #expect(wildcard.count == 50_231 - 7)
    for file in ["easylist.dnsmasq.txt", "easylist.unbound.conf", "easylist.adblock.txt"] {
      let (other, list) = try await names(file)
      #expect(other == wildcard, "\(file)")
      #expect(list.sources[0].findings.totalRejected == 7, "\(file): \(list.sources[0].findings.samples)")
    }
  }

  @Test("Compressing the domains file gives the wildcard set plus the 8 names the converter dropped")
  func compression() async throws {
    let (_, domains) = try await names("easylist.domains.txt")
    let (wildcard, _) = try await names("easylist.wildcard.txt")
    var sink = ByteSink()
    try Renderer(format: .wildcard).render(domains, to: &sink)
    let compressed = try await Compiler().compile([.text(String(decoding: sink.memory, as: UTF8.self))])
    let extra = Set(compressed.allNames).subtracting(wildcard)
    #expect(Set(compressed.allNames).isSuperset(of: wildcard))
    #expect(extra.count == 8)
    #expect(extra.contains("www.service.cz.nl"))
    #expect(extra.subtracting(["www.service.cz.nl"]).allSatisfy { $0.hasPrefix("www.") })
  }

  @Test("Every format written from the real mix parses back to exactly the names written")
  func roundTrip() async throws {
    let files = [
      "stevenblack.domains.txt", "adguarddns.hosts.txt", "easylist.hosts.txt", "someonewhocares.hosts.txt",
      "anudeep-adservers.hosts.txt", "hagezi-personal.hosts.txt",
    ]
    let list = try await Compiler().compile(files.map { .file(folder!.appending(path: $0).path) })
    #expect(list.count > 280_000)
    for format in OutputFormat.allCases {
      var sink = ByteSink()
      let report = try Renderer(format: format).render(list, to: &sink)
      let reparsed = try await Compiler().compile([
        .text(String(decoding: sink.memory, as: UTF8.self), format: InputFormat(format))
      ])
      #expect(reparsed.count == report.written, "\(format)")
      #expect(reparsed.sources[0].findings.totalRejected == 0, "\(format): \(reparsed.sources[0].findings.samples)")
      if format.coversSubdomains {
        #expect(report.written + report.compressed + report.publicSuffixesLeftOut == list.count, "\(format)")
      } else {
        #expect(Set(reparsed.allNames) == Set(list.allNames), "\(format)")
      }
    }
  }

  @Test("A full adblock list yields only its ||name^ rules; the rest is counted as unsupported")
  func adblockList() async throws {
    let text = try String(contentsOf: folder!.appending(path: "ubo-easylist.txt"), encoding: .utf8)
    // `||name^`, and `||name` with nothing after it (read as the same block, as AdGuard does).
    let plainRules = text.split(separator: "\n").map { $0.hasSuffix("^") ? $0.dropLast() : $0 }.filter { line in
      line.hasPrefix("||") && !line.dropFirst(2).contains { "/^$*|:?=&#! ".contains($0) }
    }
    let (found, list) = try await names("ubo-easylist.txt")
    #expect(found.count > 40_000)
    let validRules = plainRules.filter { rule in
      if case .success = NameRules.normalize(String(rule.dropFirst(2))) { true } else { false }
    }
    #expect(list.sources[0].findings.formats[.adblock] == validRules.count)
    #expect(validRules.count > plainRules.count - 200, "a few ||name^ rules hold invalid names")
    #expect(list.sources[0].findings.rejected[.unsupportedRule, default: 0] > 15_000)
    #expect(found.allSatisfy { !$0.contains("/") && !$0.contains("#") && !$0.contains("$") })
  }
}
