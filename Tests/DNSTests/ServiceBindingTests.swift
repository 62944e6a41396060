import DNS
import Testing

@Suite("SVCB and HTTPS record data (RFC 9460): priority, target, address hints")
struct ServiceBindingTests {
  /// `1 . alpn=h2 ipv4hint=93.184.216.34,192.0.2.7 ipv6hint=2001:db8::1`, as named sends it.
  static let wire: [UInt8] =
    [0, 1, 0]  // priority 1, target "."
    + [0, 1, 0, 3, 2, 0x68, 0x32]  // alpn=h2
    + [0, 4, 0, 8, 93, 184, 216, 34, 192, 0, 2, 7]  // ipv4hint
    + [0, 6, 0, 16, 0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]  // ipv6hint

  @Test("Decodes the priority, the target and both kinds of hint; other parameters are skipped")
  func decode() throws {
    let binding = try #require(ServiceBinding(data: Self.wire))
    #expect(binding.priority == 1 && binding.target == ".")
    #expect(binding.hints.map(\.description) == ["93.184.216.34", "192.0.2.7", "2001:db8::1"])
  }

  @Test("A target name in alias mode")
  func alias() throws {
    let wire: [UInt8] = [0, 0, 3, 0x63, 0x64, 0x6e, 7] + Array("example".utf8) + [0]
    let binding = try #require(ServiceBinding(data: wire))
    #expect(binding.priority == 0 && binding.target == "cdn.example" && binding.hints.isEmpty)
  }

  @Test(
    "Malformed data is nil, never a crash: truncated, a compression pointer, a parameter past the end, a hint of the wrong size",
    arguments: [
      [UInt8]([0, 1]), [0, 1, 0xC0, 0x0C], [0, 1, 0, 0, 4, 0, 8, 1, 2, 3, 4], [0, 1, 0, 0, 4, 0, 3, 1, 2, 3],
      [0, 1, 0, 0, 6, 0, 4, 1, 2, 3, 4], [0, 1, 5, 0x61],
    ])
  func malformed(wire: [UInt8]) {
    #expect(ServiceBinding(data: wire) == nil)
  }

  @Test("Every prefix and every single-byte change of a valid record decodes or is nil (seeded)")
  func hostile() {
    for end in 0...Self.wire.count { _ = ServiceBinding(data: Array(Self.wire.prefix(end))) }
    var state: UInt64 = 0x5EED
    for _ in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var wire = Self.wire
      wire[Int(state >> 33) % wire.count] = UInt8(truncatingIfNeeded: state >> 11)
      _ = ServiceBinding(data: wire)
    }
  }
}
