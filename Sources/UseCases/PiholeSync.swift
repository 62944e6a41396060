import Foundation
import Pihole
import Store

/// `pihole sync`: what it takes for a Pi-hole's block lists to match a profile's sources, and doing it.
///
/// Lists SaneHosts adds carry the comment `Added by SaneHosts (profile NAME)`; only those are ever
/// removed, and only for that profile. A source the Pi-hole cannot fetch (a local file, or one whose last
/// update failed) is left out and said so.
public struct PiholeSync: Sendable, Hashable {
  /// The comment on every list SaneHosts adds.
  public static let marker = "Added by SaneHosts"

  /// A source the Pi-hole is not given, and why.
  public struct Skipped: Sendable, Hashable {
    /// Why it is left out.
    public enum Reason: Sendable, Hashable {
      /// A file on this machine, which the Pi-hole cannot read.
      case localFile
      /// Its last update failed (the Pi-hole would fail to fetch it too), with the failure.
      case failing(String?)
    }

    /// The source's location.
    public var location: String
    /// Why.
    public var reason: Reason
  }

  /// The comment on this profile's lists.
  public var comment: String
  /// The lists the profile wants, in its order.
  public var wanted: [String]
  /// Its sources left out.
  public var skipped: [Skipped]
  /// Lists to add.
  public var toAdd: [String]
  /// Lists to remove (added for this profile, no longer in it); empty unless asked for.
  public var toRemove: [String]
  /// Lists whose content changed here since the Pi-hole last downloaded them.
  public var changed: [String]
  /// The profile's rules the Pi-hole lacks, as its domain entries (`planRules`).
  public var rulesToAdd: [RuleEntry] = []
  /// Entries this profile added whose rule is gone (with `removeDropped`).
  public var rulesToRemove: [RuleEntry] = []
  /// The profile's rules the Pi-hole has already.
  public var rulesKept = 0

  /// Lists wanted that the Pi-hole has already.
  public var kept: Int { wanted.count - toAdd.count }

  /// Whether gravity must run: a list added or removed, or one whose content changed (its new names
  /// reach the Pi-hole only through gravity).
  public var needsGravity: Bool { !(toAdd.isEmpty && toRemove.isEmpty && changed.isEmpty) }

  /// Plans the sync of `profile`'s enabled `sources` against the Pi-hole's block lists `existing`.
  public init(profile: String, sources: [ProfileSource], existing: [PiholeList], removeDropped: Bool) {
    comment = "\(Self.marker) (profile \(profile))"
    var wanted: [String] = []
    var lastChange: [String: Date] = [:]
    var skipped: [Skipped] = []
    for source in sources.filter(\.enabled).map(\.source) {
      guard source.location.hasPrefix("http://") || source.location.hasPrefix("https://") else {
        skipped.append(Skipped(location: source.location, reason: .localFile))
        continue
      }
      if source.status == .failed {
        skipped.append(Skipped(location: source.location, reason: .failing(source.message)))
        continue
      }
      wanted.append(source.location)
      lastChange[source.location] = source.lastChange
    }
    self.wanted = wanted
    self.skipped = skipped
    let present = Set(existing.map(\.address))
    toAdd = wanted.filter { !present.contains($0) }
    let failing = Set(skipped.map(\.location))
    // Only lists added for this profile: another profile's lists are not dropped from this one, and a
    // failing source's list stays until the source is fixed or removed.
    let comment = comment
    toRemove =
      removeDropped
      ? existing.filter { $0.comment == comment && !wanted.contains($0.address) && !failing.contains($0.address) }
        .map(\.address) : []
    changed = existing.filter { list in
      guard let change = lastChange[list.address] else { return false }
      // The Pi-hole keeps whole seconds: compare whole seconds, or a change in the second of the last
      // gravity run would look newer than it.
      return list.dateUpdated.map { change.timeIntervalSince1970.rounded(.down) > $0.timeIntervalSince1970 } ?? true
    }.map(\.address)
  }

  /// Adds and removes the planned lists and rule entries.
  public func apply(with client: PiholeClient) async throws {
    if !toAdd.isEmpty {
      let processed = try await client.addLists(toAdd, comment: comment)
      if !processed.errors.isEmpty { throw PiholeError.itemsFailed(processed.errors) }
    }
    for address in toRemove { try await client.removeList(address) }
    try await applyRules(with: client)
  }

  /// Rebuilds gravity (its log lines go to `line`), waits until the Pi-hole takes writes again, and
  /// returns the synced lists as gravity left them.
  public func rebuildGravity(with client: PiholeClient, line: @escaping @Sendable (String) -> Void) async throws
    -> [PiholeList]
  {
    try await client.gravity(line: line)
    let after = try await client.lists(type: "block")
    if let ours = after.first(where: { $0.comment == comment }) ?? after.first {
      try await client.waitUntilWritable(list: ours)
    }
    let synced = Set(wanted)
    return after.filter { synced.contains($0.address) }
  }
}
