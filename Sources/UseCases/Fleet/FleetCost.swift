import Apply
import Store

/// What a replica costs to hold the profile, weighed against its memory where the user gave it (`fleet
/// add --memory`): `fleet add` and `fleet sync` warn before a push that will not fit.
public enum FleetCost {
  /// The server's cost for a replica fed by transfer; nil for the others (a Pi-hole's gravity and a
  /// replica fed some other way were not measured).
  public static func of(_ replica: Replica) -> ServerCost? {
    guard replica.feed == .transfer, let kind = replica.kind.flatMap(SecondaryConfiguration.Kind.init(rawValue:))
    else { return nil }
    return ServerCost.secondary(kind)
  }

  /// A warning when holding `names` takes more than half of the replica's memory, or nil.
  public static func warning(for replica: Replica, names: Int) -> String? {
    guard let memory = replica.memoryMiB, memory > 0, let cost = of(replica) else { return nil }
    let needed = cost.estimate(names: names).mebibytes
    guard needed > Double(memory) / 2 else { return nil }
    return
      "\(replica.name) has \(memory) MiB: \(cost.sentence(names: names)), more than half of it. A smaller profile, or dnsmasq's servers-file on that machine, may fit better."
  }

  /// `512`, `512M`, `512MiB`, `1G`, `1GiB` as MiB; nil for anything else.
  public static func mebibytes(_ text: String) -> Int? {
    let lowered = text.lowercased()
    let digits = lowered.prefix { $0.isNumber }
    guard let value = Int(digits), value > 0 else { return nil }
    switch lowered.dropFirst(digits.count) {
    case "", "m", "mb", "mib": return value
    case "g", "gb", "gib": return value * 1024
    default: return nil
    }
  }
}
