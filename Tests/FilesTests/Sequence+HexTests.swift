import Files
import Testing

@Suite("Hex text")
struct SequenceHexTests {
  @Test("Bytes read as two lowercase hex digits each")
  func hex() {
    #expect([UInt8]().hexString == "")
    #expect([0x00, 0x0F, 0xA0, 0xFF].hexString == "000fa0ff")
    #expect(Array(0...255 as ClosedRange<UInt8>).hexString.count == 512)
  }
}
