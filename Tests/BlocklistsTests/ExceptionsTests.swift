import Blocklists
import Testing

@Suite("Exceptions: allow rules under a blocked parent, and each name's verdict in a covering format")
struct ExceptionsTests {
  static let listed: Set<String> = ["shop.example", "wild.example", "x.keep.ads.shop.example"]

  static func written(_ name: String) -> Bool { listed.contains(name) }

  static let candidates: [Exceptions.Exception] = [
    .init(name: "keep.ads.shop.example", scope: .exact, rule: "=keep.ads.shop.example"),
    .init(name: "open.shop.example", scope: .subtree, rule: "open.shop.example"),
    .init(name: "wild.example", scope: .below, rule: "*.wild.example"),
    // Under no blocked parent: no exception is needed, and none is written.
    .init(name: "free.example", scope: .subtree, rule: "free.example"),
  ]

  @Test("Only the rules a blocked parent (or, for *., the name itself) would override become exceptions")
  func active() {
    let exceptions = Exceptions(format: .dnsmasq, candidates: Self.candidates, isWritten: Self.written)
    #expect(exceptions.active.map(\.name) == ["wild.example", "open.shop.example", "keep.ads.shop.example"])
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
      #expect(exceptions.verdict("shop.example", isWritten: Self.written) == .listed)
      #expect(exceptions.verdict("ads.shop.example", isWritten: Self.written) == .covered(parent: "shop.example"))
      #expect(!exceptions.verdict("keep.ads.shop.example", isWritten: Self.written).isBlocked)
      #expect(!exceptions.verdict("deep.open.shop.example", isWritten: Self.written).isBlocked)
      #expect(exceptions.verdict("wild.example", isWritten: Self.written) == .listed)
      #expect(!exceptions.verdict("a.b.wild.example", isWritten: Self.written).isBlocked)
      #expect(exceptions.verdict("free.example", isWritten: Self.written) == .notCovered)
      // A listed name under the exact exception stays blocked by its own entry.
      #expect(exceptions.verdict("x.keep.ads.shop.example", isWritten: Self.written) == .listed)
    }
    #expect(dnsmasq.verdict("y.keep.ads.shop.example", isWritten: Self.written).isBlocked)
    #expect(!unbound.verdict("y.keep.ads.shop.example", isWritten: Self.written).isBlocked)
  }

  @Test("The wildcard format cannot say exceptions: they are counted, and the parent still blocks the names")
  func wildcard() {
    let exceptions = Exceptions(format: .wildcard, candidates: Self.candidates, isWritten: Self.written)
    #expect(exceptions.active.isEmpty)
    #expect(exceptions.unexpressed.map(\.name) == ["wild.example", "open.shop.example", "keep.ads.shop.example"])
    #expect(exceptions.verdict("keep.ads.shop.example", isWritten: Self.written).isBlocked)
  }

  @Test("Regression (BIND): the names between an exception and its blocked parent get records of their own")
  func rpzIntermediates() {
    let exceptions = Exceptions(format: .rpz, candidates: Self.candidates, isWritten: Self.written)
    // keep.ads.shop.example's record makes ads.shop.example exist in the zone, and *.shop.example no
    // longer matches it in BIND: it is blocked by a record of its own.
    #expect(exceptions.rpzIntermediates(isWritten: Self.written) == ["ads.shop.example"])
  }
}
