import Testing

@testable import Blocklists

@Suite("Punycode")
struct PunycodeTests {
  @Test(
    "Labels encode as RFC 3492 and IDNA specify",
    arguments: [
      ("münchen", "mnchen-3ya"), ("bücher", "bcher-kva"), ("日本語", "wgv71a119e"), ("ü", "tda"),
      ("公司", "55qx5d"), ("españa", "espaa-rta"),
    ])
  func encode(label: String, expected: String) {
    let encoded = Punycode.encode(label.unicodeScalars.map(\.value)).map { String(decoding: $0, as: UTF8.self) }
    #expect(encoded == expected)
  }

  @Test("The fast path agrees with Foundation's IDNA on simple names and leaves the rest to it")
  func fastPath() {
    #expect(NameRules.fastPunycode("münchen.de").map { String(decoding: $0, as: UTF8.self) } == "xn--mnchen-3ya.de")
    #expect(NameRules.fastPunycode("MÜNCHEN.de") == nil, "capitals need the full mapping")
    #expect(NameRules.fastPunycode("ｅxample.com") == nil, "full-width forms need the full mapping")
    #expect(NameRules.fastPunycode("ab--cé.com") == nil, "hyphens in places 3 and 4 are reserved")
    #expect(NameRules.normalize("MÜNCHEN.de") == .success("xn--mnchen-3ya.de"))
  }
}

@Suite("Punycode decoding")
struct PunycodeDecodingTests {
  @Test(
    "Labels decode back to what they encode",
    arguments: ["münchen", "bücher", "日本語", "ü", "公司", "españa", "abc", "ドメイン名例"])
  func roundTrip(label: String) {
    let encoded = Punycode.encode(label.unicodeScalars.map(\.value))!
    #expect(Punycode.decode(encoded) == label.unicodeScalars.map(\.value))
  }

  @Test("Names show their international labels in Unicode; the rest, and labels that do not decode, stay")
  func unicodeNames() {
    #expect(NameRules.unicode("xn--bcher-kva.website") == "bücher.website")
    #expect(NameRules.unicode("a.xn--mnchen-3ya.de") == "a.münchen.de")
    #expect(NameRules.unicode("plain.website") == "plain.website")
    #expect(NameRules.unicode("xn--!!.website") == "xn--!!.website")
    #expect(NameRules.unicode("xn--99999999999999.website") == "xn--99999999999999.website")
    // A label decoding to a control character, or to plain ASCII, is shown as written.
    #expect(NameRules.unicode("xn--a.website") == "xn--a.website")
    #expect(NameRules.unicode("xn--abc-.website") == "xn--abc-.website")
  }
}
