import Testing

@testable import Blocklists

@Suite("Name validation rules")
struct NameRulesTests {
  @Test(
    "Valid names are lower-cased and lose one trailing dot",
    arguments: [
      ("ads.example.com", "ads.example.com"), ("ADS.Example.COM.", "ads.example.com"),
      ("1st.ad-server.net", "1st.ad-server.net"),
      ("_dmarc.example.com", "_dmarc.example.com"), ("ad_server.example.org", "ad_server.example.org"),
      ("xn--mnchen-3ya.de", "xn--mnchen-3ya.de"), ("tracker.host", "tracker.host"), ("a.bz", "a.bz"),
      ("0.0.0.0.beeglivesex.com", "0.0.0.0.beeglivesex.com"),
      // Names whose special bytes fall on both sides of the eight-byte fast path.
      ("abcdefgH.example.com", "abcdefgh.example.com"),
      ("ABCDEFGHIJKLMNOP.example.com", "abcdefghijklmnop.example.com"),
      ("abcdefg-hijklmno_pq.example.com", "abcdefg-hijklmno_pq.example.com"),
      ("1234567890123456.com", "1234567890123456.com"),
      // Hyphens inside the eight-byte steps.
      ("abcdefgh-ijklmnop-qrstuvw.example.com", "abcdefgh-ijklmnop-qrstuvw.example.com"),
      ("a-b-c-d-e.f-g-h-i.example-site.com", "a-b-c-d-e.f-g-h-i.example-site.com"),
      // Capitals inside the steps, and the last bytes read as the name's last eight.
      ("Abcdefgh.Ijklmnop.Xyz", "abcdefgh.ijklmnop.xyz"), ("abcdefghi.COM", "abcdefghi.com"),
      ("abcdefgh_ij.com", "abcdefgh_ij.com"), ("ABCDEFG_.Hi.jP", "abcdefg_.hi.jp"),
      (String(repeating: "a", count: 63) + ".com", String(repeating: "a", count: 63) + ".com"),
    ])
  func valid(input: String, expected: String) {
    #expect(NameRules.normalize(input) == .success(expected))
  }

  @Test(
    "Invalid names are rejected with the reason",
    arguments: [
      ("bad..name.com", RejectReason.emptyLabel), (".lead.com", .emptyLabel), ("x.com..", .emptyLabel),
      (String(repeating: "a", count: 64) + ".com", .labelTooLong),
      (Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: "."), .nameTooLong),
      ("-x.com", .hyphenAtLabelEdge), ("abcdefgh-.com", .hyphenAtLabelEdge),
      ("abcdefghabcdefgh.c0m_", .invalidTopLabel),
      ("12345678.12345678", .invalidTopLabel), ("abcdefgh/bcdefgh.com", .invalidCharacter),
      ("x-.com", .hyphenAtLabelEdge), ("a.b-", .hyphenAtLabelEdge),
      // A hyphen that starts or ends a label inside an eight-byte step, or first in a step that starts a
      // label; when a step holds two faults, the first one in the name is the reason.
      ("abcdefg.-hijklmn.com", .hyphenAtLabelEdge), ("abc.-defghij.com", .hyphenAtLabelEdge),
      ("abc-.defghijk.com", .hyphenAtLabelEdge), ("a-b-c-d-.e-f-g-h.com", .hyphenAtLabelEdge),
      ("ab..-cdefgh.com", .emptyLabel), ("ab-..cdefgh.com", .hyphenAtLabelEdge),
      // The same in the last bytes, read again with the bytes before them.
      ("abcdefghij.-x.com", .hyphenAtLabelEdge), ("abcdefghijk.x-", .hyphenAtLabelEdge),
      ("abcdefghijkl..x", .emptyLabel), ("abcdefghijk.-.com", .hyphenAtLabelEdge), ("abcdefghi.c/m", .invalidCharacter),
      ("example.123", .invalidTopLabel), ("example.c_m", .invalidTopLabel), ("example.1com", .invalidTopLabel),
      ("1.2.3.4", .ipAddress), ("::1", .ipAddress), ("com", .bareTopLevelDomain), ("lan", .bareTopLevelDomain),
      ("localhost", .localName), ("broadcasthost", .localName), ("ip6-localhost", .localName),
      ("localhost.localdomain", .localName), ("0.0.0.0mail.example.com", .gluedAddress),
      ("127.0.0.1ads.example.com", .gluedAddress), ("ads/path.com", .invalidCharacter), ("a b.com", .invalidCharacter),
      ("ads@x.com", .invalidCharacter), ("nul\u{0}.com", .binaryData),
    ])
  func invalid(input: String, reason: RejectReason) {
    #expect(NameRules.normalize(input) == .failure(reason))
  }

  @Test("Unicode names become punycode; names that cannot convert are rejected")
  func international() {
    #expect(NameRules.normalize("münchen.de") == .success("xn--mnchen-3ya.de"))
    #expect(NameRules.normalize("MÜNCHEN.de") == .success("xn--mnchen-3ya.de"))
    #expect(
      NameRules.normalize("jiuukztv66é.newumowa098236.click") == .success("xn--jiuukztv66-k7a.newumowa098236.click"))
    #expect(NameRules.normalize("é/x.com") == .failure(.invalidInternationalName))
  }

  @Test("Invalid UTF-8 is binary data, not a name")
  func invalidUTF8() {
    var bytes: [UInt8] = [0x61, 0xFF, 0xFE, 0x2E, 0x63, 0x6F, 0x6D]
    let outcome = bytes.withUnsafeMutableBufferPointer { token in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) {
        NameRules.normalize(UnsafeBufferPointer(token), into: $0)
      }
    }
    #expect(outcome == .rejected(.binaryData))
  }

  @Test("The Latin-1 letters taken without a Unicode lookup are exactly those the lookup accepts there")
  func latin1() {
    for value in UInt32(0xA0)...0xFF {
      let scalar = Unicode.Scalar(value)!
      if NameRules.isLatin1LowercaseLetter(scalar) {
        #expect(NameRules.isOwnCaseFoldedLetterOrDigit(scalar), "U+\(String(value, radix: 16))")
      }
    }
    #expect((0xE0...0xFF).filter { NameRules.isLatin1LowercaseLetter(Unicode.Scalar(UInt32($0))!) }.count == 31)
    #expect(NameRules.normalize("münchen.de") == .success("xn--mnchen-3ya.de"))
    #expect(NameRules.normalize("straße.de") == .success("xn--strae-oqa.de"), "ß goes through the full mapping")
    #expect(NameRules.normalize("München.de") == .success("xn--mnchen-3ya.de"))
  }

  @Test("The hash computed while checking is the name's NameHash, for every length and on every path")
  func hashWhileChecking() {
    // A seeded generator over an alphabet of capitals, hyphens, dots, digits, underscores and é, so
    // names take the word path, the byte path, both, the tail step and the IDN path.
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-._".utf8)
    let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
    defer { output.deallocate() }
    var hashed = 0
    var valid = 0
    for round in 0..<20_000 {
      var token: [UInt8] = []
      let labels = 2 + next(3)
      for label in 0..<labels {
        if label > 0 { token.append(UInt8(ascii: ".")) }
        for _ in 0..<(1 + next(round % 3 == 0 ? 20 : 7)) { token.append(alphabet[next(alphabet.count)]) }
      }
      if next(50) == 0 { token += Array("é".utf8) }
      // A top-level domain of the Public Suffix List (names under others are local network names).
      token += Array([".com", ".de", ".website", ".co.uk"][next(4)].utf8)
      if next(10) == 0 { token.append(UInt8(ascii: ".")) }
      var hash: UInt64?
      let outcome = token.withUnsafeBufferPointer { NameRules.normalize($0, into: output, hash: &hash) }
      guard case .valid(let count) = outcome else {
        #expect(outcome == token.withUnsafeBufferPointer { NameRules.normalize($0, into: output) })
        continue
      }
      valid += 1
      if let hash {
        hashed += 1
        #expect(hash == NameHash.hash(UnsafeBufferPointer(rebasing: output[0..<count])), "\(token)")
      }
    }
    #expect(valid > 5_000)
    #expect(hashed > valid / 2, "most names are hashed on the way")
  }
}
