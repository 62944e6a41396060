import Blocklists

/// The addresses a blocker answers with instead of the real one: null (0.0.0.0, ::), loopback
/// (127.0.0.1, ::1) and any block-page addresses the user names.
public struct Sinkholes: Sendable, Hashable {
  /// Extra addresses that mean "blocked" (a Pi-hole or router block page), as written.
  public var blockPages: Set<String>
  /// Whether loopback addresses (127.0.0.1, ::1) mean blocked, as hosts-file blockers use them. Only a
  /// test whose servers listen on loopback turns this off.
  public var loopbackBlocks: Bool

  /// Creates the set; `blockPages` are compared in their canonical text form.
  public init(blockPages: [String] = [], loopbackBlocks: Bool = true) {
    self.blockPages = Set(blockPages.map { $0.lowercased() })
    self.loopbackBlocks = loopbackBlocks
  }

  /// Whether an address means blocked.
  public func contains(_ address: String) -> Bool {
    let kind = Address.classify(address)
    return kind == .null || (loopbackBlocks && kind == .loopback) || blockPages.contains(address.lowercased())
  }

  /// The verdict for the addresses a name resolved to: blocked when every one is a sinkhole,
  /// reachable when any is routable. An empty list is NODATA: blocked.
  public func verdict(for addresses: [String]) -> Verdict {
    if addresses.isEmpty { return Verdict(.blocked, "no address (NODATA)") }
    if let routable = addresses.first(where: { !contains($0) }) {
      return Verdict(.reachable, routable, addresses: addresses)
    }
    let shown = Array(Set(addresses)).sorted().joined(separator: ", ")
    return Verdict(.blocked, "sinkhole \(shown)", addresses: addresses)
  }
}
