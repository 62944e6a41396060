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
        ("null.test", .blocked, "sinkhole 0.0.0.0, ::"), ("loop.test", .blocked, "sinkhole 127.0.0.1"),
        ("page.test", .blocked, "sinkhole 192.0.2.99"), ("real.test", .reachable, "198.51.100.7"),
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
}
