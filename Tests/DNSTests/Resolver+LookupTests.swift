import DNS
import TestSupport
import Testing

@Suite("Lookups: A and AAAA at once")
struct ResolverLookupTests {
  @Test("Both queries go out at once and both outcomes come back, failures included")
  func both() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      guard let question = request.message?.questions.first else { return [] }
      // AAAA is a black hole: the lookup still returns the A answer, after the timeout.
      guard question.type == .a else { return [] }
      return [
        .bytes(FakeDNSServer.response(to: request, answers: [Record(name: question.name, data: .a(.unspecified))]))
      ]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let start = ContinuousClock.now
      let lookup = await localResolver(server.port).lookup("ads.test", timeout: .milliseconds(400))
      let elapsed = ContinuousClock.now - start
      #expect(lookup.name == "ads.test")
      let a = try lookup.a.get()
      #expect(a.addresses == [.v4(.unspecified)])
      #expect(throws: ResolverError.timeout(server: "127.0.0.1:\(server.port)", after: .milliseconds(400))) {
        try lookup.aaaa.get()
      }
      #expect(lookup.addresses == [.v4(.unspecified)])
      #expect(elapsed >= .milliseconds(400), "took \(elapsed)")
      #expect(Set(server.requests.compactMap { $0.message?.questions.first?.type }) == [.a, .aaaa])
    }
  }

  @Test("Two black holes: both queries are sent and both time out")
  func concurrent() async throws {
    let behaviour: FakeDNSServer.Behaviour = { _ in [] }
    try await FakeDNSServer.with(behaviour) { server in
      let start = ContinuousClock.now
      let lookup = await localResolver(server.port).lookup("ads.test", timeout: .seconds(1))
      let elapsed = ContinuousClock.now - start
      #expect(throws: ResolverError.self) { try lookup.a.get() }
      #expect(throws: ResolverError.self) { try lookup.aaaa.get() }
      // Both waited their own timeout; that they run at the same time is a task group's doing (and the
      // benchmark's 131 names × 2 queries in 0.07 s shows it).
      #expect(elapsed >= .seconds(1), "took \(elapsed)")
      #expect(Set(server.requests.compactMap { $0.message?.questions.first?.type }) == [.a, .aaaa])
    }
  }

  @Test("An invalid name fails both queries with the same named error")
  func invalidName() async {
    let lookup = await localResolver(53).lookup("a..b", timeout: .seconds(1))
    #expect(throws: ResolverError.invalidName("a..b", reason: .emptyLabel)) { try lookup.a.get() }
    #expect(throws: ResolverError.invalidName("a..b", reason: .emptyLabel)) { try lookup.aaaa.get() }
    #expect(lookup.addresses.isEmpty)
  }
}
