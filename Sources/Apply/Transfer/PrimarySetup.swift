import DNS
import Files
import Foundation

/// How `apply --target bind --transfer-to …` makes this machine's BIND the fleet's primary: where BIND
/// answers SaneHosts' updates, which secondaries it feeds, and whether transfers are signed.
///
/// Beside the drop-in (`OUTPUT`, SaneHosts' rendering, the copy the ledger confirms) it keeps two files:
/// `OUTPUT.primary.conf`, the keys and zone statement named.conf includes, and `OUTPUT.primary`, the zone
/// file BIND loads first and then keeps itself (with its journal, `OUTPUT.primary.jnl`). The keys are
/// generated once and read back from the configuration on every apply.
public struct PrimarySetup: Sendable, Hashable, Codable {
  /// Where the primary answers SaneHosts' updates and SOA queries (this machine's BIND: 127.0.0.1:53).
  public var address: ServerAddress
  /// The secondaries it allows to transfer and notifies.
  public var secondaries: [ServerAddress]
  /// Sign transfers with a key of their own (`--tsig`) instead of allowing the secondaries' addresses.
  public var signTransfers: Bool

  /// A setup.
  public init(address: ServerAddress, secondaries: [ServerAddress], signTransfers: Bool) {
    self.address = address
    self.secondaries = secondaries
    self.signTransfers = signTransfers
  }

  /// The configuration named.conf includes, for the drop-in at `output`.
  public static func configurationPath(output: String) -> String { output + ".primary.conf" }

  /// The zone file BIND keeps, for the drop-in at `output`.
  public static func zoneFilePath(output: String) -> String { output + ".primary" }

  /// The primary's configuration for the drop-in at `output`: the keys already in its configuration file
  /// when there is one, else new ones.
  public func zone(output: String) -> PrimaryZone {
    let existing = Self.keys(output: output)
    let update = existing.first { $0.name == PrimaryZone.updateKeyName } ?? .generate(name: PrimaryZone.updateKeyName)
    let transfer =
      signTransfers
      ? existing.first { $0.name == PrimaryZone.transferKeyName } ?? .generate(name: PrimaryZone.transferKeyName) : nil
    return PrimaryZone(
      file: Self.zoneFilePath(output: output), secondaries: secondaries, transferKey: transfer, updateKey: update)
  }

  /// The keys in the configuration written for the drop-in at `output` (none when it is missing).
  public static func keys(output: String) -> [TransactionKey] {
    guard let data = FileManager.default.contents(atPath: configurationPath(output: output)) else { return [] }
    return TransactionKey.statements(in: String(decoding: data, as: UTF8.self))
  }

  /// Writes `zone`'s configuration when it differs (mode 0640: it holds the keys), and BIND's zone file
  /// from `seed` when there is none yet; returns whether the configuration was new or changed.
  @discardableResult
  public static func write(_ zone: PrimaryZone, output: String, seed: [UInt8]) throws(StagedFile.Failure) -> Bool {
    let path = configurationPath(output: output)
    let bytes = Array(zone.configuration.utf8)
    if !FileManager.default.fileExists(atPath: zone.file) {
      try StagedFile.replace(zone.file, with: seed, mode: 0o644)
    }
    if let existing = FileManager.default.contents(atPath: path), Array(existing) == bytes { return false }
    try StagedFile.replace(path, with: bytes, mode: 0o640)
    return true
  }

  /// What the user adds to named.conf, once, for the drop-in at `output`.
  public static func instructions(output: String) -> String {
    """
    include "\(configurationPath(output: output))";  // in named.conf, then: rndc reconfig
    """
  }
}
