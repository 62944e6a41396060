import Testing

@testable import Blocklists

@Suite("The scanner under a list's header date")
struct DateScannerTests {
  static func scanner(_ text: String) -> DateScanner { DateScanner(bytes: Array(text.utf8), at: 0) }

  @Test("Digits: at most the upper bound taken, at least the lower one needed; nothing consumed on a miss")
  func digits() {
    var scan = Self.scanner("202207x")
    let found1 = scan.digits(4...4)
    #expect(found1 == 2022)
    let found2 = scan.digits(1...2)
    #expect(found2 == 7)
    let found3 = scan.digits(1...2)
    #expect(found3 == nil)
    #expect(scan.index == 6)
    var short = Self.scanner("7-")
    let found4 = short.digits(2...2)
    #expect(found4 == nil)
    #expect(short.index == 0)
  }

  @Test("Letters count ä as one letter; too long a word is no month, and the cursor stays")
  func letters() {
    var german = Self.scanner("Mär. 2024")
    let found5 = german.letters(3...9)
    #expect(found5 == "Mär")
    let found6 = german.skip(".")
    #expect(found6)
    var long = Self.scanner("Septembers 2")
    let found7 = long.letters(3...9)
    #expect(found7 == nil)
    #expect(long.index == 0)
    var plain = Self.scanner("Mär")
    let found8 = plain.letters(3...9, umlauts: false)
    #expect(found8 == nil)
  }

  @Test("A clock with or without seconds, and where a word ends")
  func clockAndWordEnd() {
    var scan = Self.scanner("9:05 12:25:34 1:2")
    let found9 = scan.clock()
    #expect(found9.map { [$0.0, $0.1, $0.2] } == [9, 5, 0])
    let found10 = scan.spaces()
    #expect(found10)
    let found11 = scan.clock()
    #expect(found11.map { [$0.0, $0.1, $0.2] } == [12, 25, 34])
    let found12 = scan.spaces()
    #expect(found12)
    let found13 = scan.clock()
    #expect(found13 == nil)
    #expect(scan.index == 14)
    var number = Self.scanner("0724.12")
    _ = number.digits(4...4)
    #expect(!number.atWordEnd)
    var dated = Self.scanner("0724. x")
    _ = dated.digits(4...4)
    #expect(dated.atWordEnd)
  }
}
