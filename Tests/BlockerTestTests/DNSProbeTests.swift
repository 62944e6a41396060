import BlockerTest
import DNS
import Foundation
import TestSupport
import Testing

@Suite("The DNS probe", .serialized)
struct DNSProbeTests {
  /// Answers by name: `.a` addresses, or a response code.
  static func behaviour(_ table: [String: ([String], ResponseCode)]) -> FakeDNSServer.Behaviour {
    { request in
      guard let question = request.message?.questions.first else { return [] }
      let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
      guard let (addresses, code) = table[name] else { return [] }  // unknown: a black hole
      let answers = addresses.compactMap { text -> Record? in
        if question.type == .a, let ip = IPv4Address(text) { return Record(name: question.name, data: .a(ip)) }
        if question.type == .aaaa, let ip = IPv6Address(text) { return Record(name: question.name, data: .aaaa(ip)) }
        return nil
      }
      return [.bytes(FakeDNSServer.response(to: request, answers: answers, code: code))]
    }
  }

  @Test("Each kind of answer gets its outcome and reason")
  func outcomes() async throws {
    let table: [String: ([String], ResponseCode)] = [
      "nx.test": ([], .nxDomain), "refused.test": ([], .refused), "null.test": (["0.0.0.0", "::"], .noError),
      "loop.test": (["127.0.0.1"], .noError), "page.test": (["192.0.2.99"], .noError),
      "real.test": (["198.51.100.7", "2001:db8::7"], .noError), "nodata.test": ([], .noError),
      "fail.test": ([], .servFail),
    ]
    try await FakeDNSServer.with(Self.behaviour(table)) { server in
      let probe = DNSProbe(
        resolver: try Resolver(server: "127.0.0.1:\(server.port)"), sinkholes: Sinkholes(blockPages: ["192.0.2.99"]),
        timeout: .seconds(1))
      #expect(probe.target == "127.0.0.1:\(server.port)")
      let expected: [(String, Outcome, String)] = [
        ("nx.test", .blocked, "NXDOMAIN"), ("refused.test", .blocked, "REFUSED"),
        ("null.test", .blocked, "sinkhole 0.0.0.0, ::"), ("loop.test", .blocked, "sinkhole 127.0.0.1 (AAAA: NODATA)"),
        ("page.test", .blocked, "sinkhole 192.0.2.99 (AAAA: NODATA)"), ("real.test", .reachable, "198.51.100.7"),
        ("nodata.test", .blocked, "NODATA"), ("fail.test", .inconclusive, "A: SERVFAIL; AAAA: SERVFAIL"),
        ("silent.test", .inconclusive, "A: timeout; AAAA: timeout"),
      ]
      for (name, outcome, reason) in expected {
        let verdict = await probe.probe(name)
        #expect(verdict.outcome == outcome, "\(name): \(verdict)")
        #expect(verdict.reason == reason, "\(name): \(verdict)")
      }
    }
  }

  @Test("A black-hole resolver: the run stops after the controls' one timeout, with no score")
  func blackHole() async throws {
    try await FakeDNSServer.with({ _ in [] }) { server in
      let probe = DNSProbe(resolver: try Resolver(server: "127.0.0.1:\(server.port)"), timeout: .seconds(1))
      let runner = TestRunner(probe: probe, options: .init(timeout: .seconds(1)), clock: ContinuousClock())
      await #expect(throws: TestError.self) { try await runner.run(.builtIn) }
      // Only the three controls were asked (A and AAAA): the run ended after one timeout.
      #expect(server.requests.count == 6)
    }
  }

  /// A reply to `type` with `code` and these addresses.
  static func reply(_ type: RecordType, _ code: ResponseCode, _ addresses: [String] = []) -> Result<
    Message, ResolverError
  > {
    let answers = addresses.compactMap { text -> Record? in
      if let ip = IPv4Address(text) { return Record(name: "x.test", data: .a(ip)) }
      if let ip = IPv6Address(text) { return Record(name: "x.test", data: .aaaa(ip)) }
      return nil
    }
    return .success(
      Message(
        id: 1, flags: .init(isResponse: true, responseCode: code), questions: [Question(name: "x.test", type: type)],
        answers: answers))
  }

  @Test("The verdict is a pure function of the two answers: the rules of docs/test-report.md, one case each")
  func verdictRules() {
    let probe = DNSProbe(resolver: Resolver(server: ServerAddress(ip: .v4(IPv4Address("127.0.0.1")!), port: 53)))
    let timeout: Result<Message, ResolverError> = .failure(.timeout(server: "127.0.0.1:53", after: .seconds(2)))
    let cases: [(Result<Message, ResolverError>, Result<Message, ResolverError>, Outcome, String)] = [
      // A routable address in either answer: reachable, whatever the other says.
      (Self.reply(.a, .noError, ["192.0.2.1"]), Self.reply(.aaaa, .refused), .reachable, "192.0.2.1"),
      (Self.reply(.a, .refused), Self.reply(.aaaa, .noError, ["2001:db8::1"]), .reachable, "2001:db8::1"),
      (Self.reply(.a, .noError, ["192.0.2.1"]), timeout, .reachable, "192.0.2.1"),
      // One answer missing: never blocked on the other's word alone.
      (timeout, Self.reply(.aaaa, .refused), .inconclusive, "A: timeout; AAAA: REFUSED"),
      (Self.reply(.a, .nxDomain), timeout, .inconclusive, "A: NXDOMAIN; AAAA: timeout"),
      (
        Self.reply(.a, .noError, ["0.0.0.0"]), Self.reply(.aaaa, .servFail), .inconclusive,
        "A: sinkhole 0.0.0.0; AAAA: SERVFAIL"
      ),
      // Both answered, no routable address: blocked, the mode named.
      (
        Self.reply(.a, .noError, ["0.0.0.0"]), Self.reply(.aaaa, .refused), .blocked, "sinkhole 0.0.0.0 (AAAA: REFUSED)"
      ),
      (Self.reply(.a, .noError, ["0.0.0.0"]), Self.reply(.aaaa, .noError, ["::"]), .blocked, "sinkhole 0.0.0.0, ::"),
      (Self.reply(.a, .nxDomain), Self.reply(.aaaa, .nxDomain), .blocked, "NXDOMAIN"),
      (Self.reply(.a, .noError), Self.reply(.aaaa, .noError), .blocked, "NODATA"),
      (Self.reply(.a, .refused), Self.reply(.aaaa, .refused), .blocked, "REFUSED"),
      (Self.reply(.a, .refused), Self.reply(.aaaa, .noError, ["::"]), .blocked, "REFUSED (AAAA: sinkhole ::)"),
    ]
    for (a, aaaa, outcome, reason) in cases {
      let verdict = probe.verdict(Lookup(name: "x.test", a: a, aaaa: aaaa))
      #expect(verdict.outcome == outcome && verdict.reason == reason, "\(a) / \(aaaa): \(verdict)")
    }
  }

  @Test(
    "A negative answer carrying the SOA of a zone above the name is the upstream's own; none, the root's, or a policy zone's is not"
  )
  func upstreamZone() {
    let probe = DNSProbe(resolver: Resolver(server: ServerAddress(ip: .v4(IPv4Address("127.0.0.1")!), port: 53)))
    func negative(_ type: RecordType, _ code: ResponseCode, zone: String?) -> Result<Message, ResolverError> {
      let soa = zone.map {
        Record(
          name: $0,
          data: .soa(
            .init(primary: "ns.\($0)", mailbox: "h.\($0)", serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1)))
      }
      return .success(
        Message(
          id: 1, flags: .init(isResponse: true, responseCode: code),
          questions: [Question(name: "ads.shop.test", type: type)],
          authority: soa.map { [$0] } ?? []))
    }
    let cases: [(String?, String?, ResponseCode, String?)] = [
      ("shop.test", "shop.test", .nxDomain, "shop.test"),  // the upstream's NXDOMAIN
      ("Shop.Test.", "shop.test", .noError, "shop.test"),  // NODATA, any case, a final dot
      ("ads.shop.test", "ads.shop.test", .noError, "ads.shop.test"),  // the name's own zone
      (nil, nil, .nxDomain, nil),  // dnsmasq's server=/name/: no SOA
      ("sanehosts.rpz", "sanehosts.rpz", .nxDomain, nil),  // BIND's RPZ: its policy zone
      (".", ".", .nxDomain, nil),  // the root: says nothing of the name
      ("shop.test", nil, .nxDomain, nil),  // only one of the two answers
      ("hop.test", "hop.test", .nxDomain, nil),  // a suffix, not a zone above
    ]
    for (a, aaaa, code, expected) in cases {
      let verdict = probe.verdict(
        Lookup(name: "ads.shop.test", a: negative(.a, code, zone: a), aaaa: negative(.aaaa, code, zone: aaaa)))
      #expect(verdict.outcome == .blocked && verdict.upstreamZone == expected, "\(a ?? "-") \(aaaa ?? "-"): \(verdict)")
    }
  }

  @Test(
    "Hostile servers: garbage, a wrong id, a reply from another port, TC then a closed TCP connection, each with AAAA refused: inconclusive, never blocked"
  )
  func hostileAnswers() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      guard let question = request.message?.questions.first else { return [] }
      // AAAA is always refused: the old verdict took that alone as "blocked".
      if question.type == .aaaa { return [.bytes(FakeDNSServer.response(to: request, code: .refused))] }
      let routable = [Record(name: question.name, data: .a(IPv4Address("192.0.2.1")!))]
      switch question.name {
      case "garbage.test": return [.bytes([0xDE, 0xAD, 0xBE, 0xEF, 0x00])]
      case "wrong-id.test":
        let id = (request.message?.id ?? 0) &+ 1
        return [.bytes(FakeDNSServer.response(to: request, answers: routable, id: id))]
      case "spoofed.test": return [.fromOtherPort(FakeDNSServer.response(to: request, code: .nxDomain))]
      case "truncated.test":
        return request.transport == .udp
          ? [.bytes(FakeDNSServer.response(to: request, truncated: true))] : [.closeConnection]
      default: return []
      }
    }
    try await FakeDNSServer.with(behaviour) { server in
      let probe = DNSProbe(resolver: try Resolver(server: "127.0.0.1:\(server.port)"), timeout: .milliseconds(500))
      for name in ["garbage.test", "wrong-id.test", "spoofed.test", "truncated.test"] {
        let verdict = await probe.probe(name)
        #expect(verdict.outcome == .inconclusive, "\(name): \(verdict)")
        #expect(verdict.reason.hasSuffix("; AAAA: REFUSED"), "\(name): \(verdict)")
      }
    }
  }
}
