import Testing

@testable import SaneHostsCLI

@Suite("Memory policy")
struct MemoryPolicyTests {
  @Test("glibc takes the policy, and large blocks freed and allocated again still hold what is written")
  func keepsFreedMemory() {
    #if canImport(Glibc)
      #expect(MemoryPolicy.keepFreedMemory())
    #endif
    for round in 0..<4 {
      var block = [UInt8](repeating: UInt8(round), count: 24 << 20)
      block[block.count - 1] = 0xFF
      #expect(block[0] == UInt8(round) && block[block.count - 1] == 0xFF)
    }
  }
}
