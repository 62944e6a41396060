import DNS

/// BIND as the fleet's primary: the response-policy zone served to secondaries by zone transfer, and
/// changed by signed dynamic updates (RFC 2136) so a change goes out as IXFR within a second.
///
/// Why updates and not a reloaded file (docs/fleet.md, ARCHITECTURE.md): with the 10 real lists' zone,
/// BIND took 6.5 s to re-read and diff a changed 16 MB file before the first secondary had the change;
/// the same 1 % change sent as updates was applied in 0.23 s, and `notify-delay 0` sends it on at once.
public struct PrimaryZone: Sendable, Hashable {
  /// The zone file BIND loads first and then keeps itself (its journal beside it, `.jnl`).
  public var file: String
  /// The secondaries: allowed to transfer (by address unless `transferKey` is set) and notified of each change.
  public var secondaries: [ServerAddress]
  /// The key secondaries sign transfers with; nil: by address alone.
  public var transferKey: TransactionKey?
  /// The key SaneHosts signs its updates with: the only way to change the zone.
  public var updateKey: TransactionKey

  /// The zone's name.
  public static let zone = ServerTarget.rpzZone
  /// The name of the key generated for updates.
  public static let updateKeyName = "sanehosts-update"
  /// The name of the key generated for transfers (`--tsig`).
  public static let transferKeyName = "sanehosts-transfer"

  /// A primary for `file`, transferring to `secondaries`.
  public init(
    file: String, secondaries: [ServerAddress], transferKey: TransactionKey? = nil, updateKey: TransactionKey
  ) {
    self.file = file
    self.secondaries = secondaries
    self.transferKey = transferKey
    self.updateKey = updateKey
  }

  /// The keys' statements and the zone's, for BIND's configuration (`include` the file that holds it
  /// from named.conf; `response-policy` is needed only where this BIND also answers clients).
  public var configuration: String {
    var text = "// Written by SaneHosts: the fleet's primary for \(Self.zone). Include it from named.conf.\n"
    text += updateKey.statement
    if let transferKey, transferKey.name != updateKey.name { text += transferKey.statement }
    // SaneHosts itself reads the zone back by AXFR (with the update key) when the primary's serial is not
    // the one it last confirmed.
    let allowed =
      ["key \"\(updateKey.name)\";"] + (transferKey.map { ["key \"\($0.name)\";"] } ?? secondaries.map { "\($0.ip);" })
    let notified = secondaries.map { "\($0.ip) port \($0.port);" }
    text += """
      zone "\(Self.zone)" {
        type primary;
        file "\(file)";
        allow-update { key "\(updateKey.name)"; };
        allow-transfer { \(allowed.joined(separator: " ")) };
        also-notify { \(notified.joined(separator: " ")) };
        notify explicit;
        notify-delay 0;
        ixfr-from-differences yes;
      };

      """
    return text
  }
}
