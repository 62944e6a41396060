import Blocklists
import Testing

@Suite("Exceptions: allow rules under a blocked parent, and each name's verdict in a covering format")
struct ExceptionsTests {
  static let listed: Set<String> = ["shop.website", "wild.website", "x.keep.ads.shop.website"]

  static func written(_ name: String) -> Bool { listed.contains(name) }

  static let candidates: [Exceptions.Exception] = [
    .init(name: "keep.ads.shop.website", scope: .exact, rule: "=keep.ads.shop.website"),
    .init(name: "open.shop.website", scope: .subtree, rule: "open.shop.website"),
    .init(name: "wild.website", scope: .below, rule: "*.wild.website"),
    // Under no blocked parent: no exception is needed, and none is written.
    .init(name: "free.website", scope: .subtree, rule: "free.website"),
  ]

  @Test("Only the rules a blocked parent (or, for *., the name itself) would override become exceptions")
  func active() {
    let exceptions = Exceptions(format: .dnsmasq, candidates: Self.candidates, isWritten: Self.written)
    #expect(exceptions.active.map(\.name) == ["wild.website", "open.shop.website", "keep.ads.shop.website"])
    #expect(exceptions.unexpressed.isEmpty)
    #expect(Exceptions(format: .hosts, candidates: Self.candidates, isWritten: Self.written).active.isEmpty)
  }

  @Test(
    "Verdicts: an exact allow keeps its subdomains blocked where the format re-blocks them (not unbound's transparent zone)"
  )
  func verdicts() {
    let dnsmasq = Exceptions(format: .dnsmasq, candidates: Self.candidates, isWritten: Self.written)
    let unbound = Exceptions(format: .unbound, candidates: Self.candidates, isWritten: Self.written)
    for exceptions in [dnsmasq, unbound] {
      #expect(exceptions.verdict("shop.website", isWritten: Self.written) == .listed)
      #expect(exceptions.verdict("ads.shop.website", isWritten: Self.written) == .covered(parent: "shop.website"))
      #expect(!exceptions.verdict("keep.ads.shop.website", isWritten: Self.written).isBlocked)
      #expect(!exceptions.verdict("deep.open.shop.website", isWritten: Self.written).isBlocked)
      #expect(exceptions.verdict("wild.website", isWritten: Self.written) == .listed)
      #expect(!exceptions.verdict("a.b.wild.website", isWritten: Self.written).isBlocked)
      #expect(exceptions.verdict("free.website", isWritten: Self.written) == .notCovered)
      // A listed name under the exact exception stays blocked by its own entry.
      #expect(exceptions.verdict("x.keep.ads.shop.website", isWritten: Self.written) == .listed)
    }
    #expect(dnsmasq.verdict("y.keep.ads.shop.website", isWritten: Self.written).isBlocked)
    #expect(!unbound.verdict("y.keep.ads.shop.website", isWritten: Self.written).isBlocked)
  }

  @Test("The wildcard format cannot say exceptions: they are counted, and the parent still blocks the names")
  func wildcard() {
    let exceptions = Exceptions(format: .wildcard, candidates: Self.candidates, isWritten: Self.written)
    #expect(exceptions.active.isEmpty)
    #expect(exceptions.unexpressed.map(\.name) == ["wild.website", "open.shop.website", "keep.ads.shop.website"])
    #expect(exceptions.verdict("keep.ads.shop.website", isWritten: Self.written).isBlocked)
  }

  @Test("Regression (BIND): the names between an exception and its blocked parent get records of their own")
  func rpzIntermediates() {
    let exceptions = Exceptions(format: .rpz, candidates: Self.candidates, isWritten: Self.written)
    // keep.ads.shop.website's record makes ads.shop.website exist in the zone, and *.shop.website no
    // longer matches it in BIND: it is blocked by a record of its own.
    #expect(exceptions.rpzIntermediates(isWritten: Self.written) == ["ads.shop.website"])
  }
}
