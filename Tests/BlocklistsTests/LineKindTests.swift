import Testing

@testable import Blocklists

@Suite("Recognising a line's format")
struct LineKindTests {
  /// The first bytes of some text as a little-endian integer, as a load from a line gives them.
  static func word<T: FixedWidthInteger>(_ text: String, as: T.Type) -> T {
    Array(text.utf8).enumerated().reduce(T(0)) { $0 | T($1.element) << (8 * $1.offset) }
  }

  @Test("The address words are the bytes they stand for (a wrong one would only slow lines down)")
  func addressWords() {
    #expect(LineKind.nullSpace == Self.word("0.0.0.0 ", as: UInt64.self))
    #expect(LineKind.nullTab == Self.word("0.0.0.0\t", as: UInt64.self))
    #expect(LineKind.loopbackStart == Self.word("127.0.0.", as: UInt64.self))
    #expect(LineKind.loopbackSpace == Self.word("1 ", as: UInt16.self))
    #expect(LineKind.loopbackTab == Self.word("1\t", as: UInt16.self))
  }

  @Test("Lines starting with the address words are hosts lines with the address's end")
  func fastPath() {
    func kind(_ line: String) -> LineKind {
      Array(line.utf8).withUnsafeBufferPointer { LineKind.of($0) }
    }
    guard case .hosts(.null, 7) = kind("0.0.0.0 ads.example.com") else {
      Issue.record("\(kind("0.0.0.0 ads.example.com"))")
      return
    }
    guard case .hosts(.loopback, 9) = kind("127.0.0.1\tads.example.com") else {
      Issue.record("\(kind("127.0.0.1\tads.example.com"))")
      return
    }
  }
}
