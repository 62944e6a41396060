import Apply
import DNS
import Foundation
import Store

/// The profile's primary, as `apply --target bind --transfer-to` left it: the drop-in whose
/// `.primary.conf` is beside it, the serial it last confirmed, and its keys.
public struct FleetPrimary: Sendable, Hashable {
  /// SaneHosts' rendering of the zone (the drop-in `apply` wrote).
  public var output: String
  /// The serial the primary answered when it last confirmed the zone; nil: never confirmed.
  public var serial: UInt32?
  /// Whether secondaries transfer with a key (the configuration holds a transfer key).
  public var signsTransfers: Bool

  /// The primary recorded in the ledger of `data` (the BIND drop-in with a primary configuration beside it
  /// written last), or nil when no apply made one.
  public static func find(in data: DataDirectory) -> FleetPrimary? {
    let entries = Ledger(url: data.ledger).entries().filter { path, entry in
      entry.target == ServerTarget.bind.rawValue
        && FileManager.default.fileExists(atPath: PrimarySetup.configurationPath(output: path))
    }
    guard let (path, entry) = entries.max(by: { $0.value.date < $1.value.date }) else { return nil }
    let keys = PrimarySetup.keys(output: path)
    return FleetPrimary(
      output: path, serial: entry.primarySerial,
      signsTransfers: keys.contains { $0.name == PrimaryZone.transferKeyName })
  }

  /// The key secondaries transfer with, when transfers are signed.
  public var transferKey: TransactionKey? {
    PrimarySetup.keys(output: output).first { $0.name == PrimaryZone.transferKeyName }
  }
}
