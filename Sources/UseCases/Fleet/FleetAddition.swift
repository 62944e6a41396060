import DNS
import Foundation
import Pihole
import Store

/// `fleet add`: a replica added to a profile's fleet once, however its address is spelled.
public enum FleetAddition {
  /// Adds `new` to `profile`'s fleet (the active one when nil), refusing a Pi-hole or a DNS server the
  /// fleet already has under another name or spelling (`10.0.0.2:8080` and `http://10.0.0.2:8080/admin`
  /// are one Pi-hole; `10.0.0.2` and `10.0.0.2:53` one server).
  @discardableResult
  public static func add(_ new: Store.NewReplica, to profile: String?, in store: Store) throws -> Replica {
    for existing in try store.replicas(in: profile) {
      if let machine = sameMachine(new, existing) {
        throw FleetAdditionError.alreadyInFleet(name: new.name, existing: existing.name, machine: machine)
      }
    }
    return try store.addReplica(new, to: profile)
  }

  /// What `new` and `existing` both are, when they are one machine's Pi-hole or DNS server; nil otherwise.
  static func sameMachine(_ new: Store.NewReplica, _ existing: Replica) -> String? {
    if new.feed == .pihole, existing.feed == .pihole, let a = new.pihole, let b = existing.pihole,
      let first = try? PiholeHost(a), let second = try? PiholeHost(b), first == second
    {
      return "the Pi-hole \(first)"
    }
    if new.feed != .pihole, existing.feed != .pihole, let a = new.resolver, let b = existing.resolver,
      let first = try? ServerAddress(parsing: a), let second = try? ServerAddress(parsing: b), first == second
    {
      return "the DNS server \(first)"
    }
    return nil
  }
}

/// Why a replica cannot be added.
public enum FleetAdditionError: Error, Sendable, Hashable, LocalizedError {
  /// The fleet has the same machine already, under `existing`.
  case alreadyInFleet(name: String, existing: String, machine: String)

  public var errorDescription: String? {
    switch self {
    case .alreadyInFleet(let name, let existing, let machine):
      "Cannot add \(name): \(machine) is in the fleet already, as \(existing). One machine is one replica (a sync would reach it twice); use sanehosts fleet remove \(existing) first to rename it."
    }
  }
}
