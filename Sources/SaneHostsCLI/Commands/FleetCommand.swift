import ArgumentParser
import DNS
import Foundation
import Pihole
import Store

/// `sanehosts fleet`: the resolvers and Pi-holes kept blocking as a profile does, and how each is fed.
struct FleetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fleet",
    abstract: "Name the resolvers and Pi-holes kept blocking as a profile does (its replicas).",
    discussion: """
      Each profile has a fleet of its own. A replica is fed one of three ways: --pihole HOST (a Pi-hole v6, \
      kept the same through its API), --resolver IP[:PORT] --kind bind|unbound|pdns-recursor (a DNS \
      server that takes the profile's response-policy zone by zone transfer), or --resolver IP[:PORT] alone \
      (fed by some other path, such as `serve`'s list URL or its own `sanehosts apply`: verified only, by \
      its answers).
      """,
    subcommands: [Add.self, List.self, Show.self, Remove.self],
    defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a replica to the fleet.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @Argument(help: "The replica's name in the fleet (letters, digits, -, _ and .).") var name: String
    @Option(
      help: ArgumentHelp("A Pi-hole v6 (host, address or URL), kept the same through its API.", valueName: "host"))
    var pihole: String?
    @Option(help: ArgumentHelp("The replica's DNS server, asked to verify it: IP or IP:port.", valueName: "address"))
    var resolver: String?
    @Option(
      help: ArgumentHelp(
        "With --resolver: the server takes the zone by transfer; its kind (bind, unbound or pdns-recursor).",
        valueName: "kind"),
      completion: .list(Replica.transferKinds))
    var kind: String?

    func validate() throws {
      guard (pihole == nil) != (resolver == nil) || (pihole != nil && resolver != nil && kind == nil) else {
        throw ValidationError("Say how the replica is fed: --pihole HOST, or --resolver IP[:PORT] (with --kind K).")
      }
      if let kind {
        guard resolver != nil, pihole == nil else {
          throw ValidationError("--kind goes with --resolver, not --pihole.")
        }
        guard Replica.transferKinds.contains(kind) else {
          throw ValidationError("--kind takes \(Replica.transferKinds.joined(separator: ", ")), not “\(kind)”.")
        }
      }
      if let resolver, (try? ServerAddress(parsing: resolver)) == nil {
        throw ValidationError("--resolver takes the server as IP or IP:port ([v6]:port), not “\(resolver)”.")
      }
    }

    func run() throws {
      if let pihole { _ = try PiholeHost(pihole) }
      let store = try store.open()
      let feed: Replica.Feed = pihole != nil ? .pihole : kind != nil ? .transfer : .verifiedOnly
      let replica = try store.addReplica(
        .init(name: name, feed: feed, pihole: pihole, resolver: resolver, kind: kind), to: profile.name)
      let profile = try store.profile(self.profile.name)
      Terminal.writeOutput("Added replica \(replica.name) to profile \(profile.name): \(FleetCommand.how(replica)).\n")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List a profile's replicas.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let store = try store.open()
      let replicas = try store.replicas(in: profile.name)
      printing.write(replicas) {
        guard !replicas.isEmpty else {
          return "No replicas yet. Add one: sanehosts fleet add NAME --pihole HOST | --resolver IP[:PORT] [--kind K]\n"
        }
        return Text.table(
          [["NAME", "FED BY", "ASKED AT"]]
            + replicas.map { [$0.name, FleetCommand.feed($0), $0.resolver ?? $0.pihole ?? "-"] })
      }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one replica.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var printing: OutputOptions
    @Argument(help: "The replica's name.") var name: String

    func run() throws {
      let replica = try store.open().replica(named: name, in: profile.name)
      printing.write(replica) {
        var out = "Replica \(replica.name): \(FleetCommand.how(replica))\n"
        out += "Added: \(replica.addedAt.formatted(.iso8601))\n"
        return out
      }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove a replica from the fleet (the machine itself is not changed).")

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @Argument(help: "The replica's name.") var name: String

    func run() throws {
      let replica = try store.open().removeReplica(named: name, from: profile.name)
      Terminal.writeOutput("Removed replica \(replica.name) from the fleet.\n")
    }
  }

  /// How a replica is fed, in a few words: `Pi-hole API`, `zone transfer (unbound)`, `verified only`.
  static func feed(_ replica: Replica) -> String {
    switch replica.feed {
    case .pihole: "Pi-hole API"
    case .transfer: "zone transfer (\(replica.kind ?? "?"))"
    case .verifiedOnly: "verified only"
    }
  }

  /// How a replica is fed and asked, as a sentence's end.
  static func how(_ replica: Replica) -> String {
    switch replica.feed {
    case .pihole:
      "the Pi-hole \(replica.pihole ?? "?"), kept the same through its API"
        + (replica.resolver.map { ", asked at \($0)" } ?? "")
    case .transfer:
      "a \(replica.kind ?? "?") server at \(replica.resolver ?? "?") taking the zone by transfer"
    case .verifiedOnly:
      "fed by another path, verified through its DNS server at \(replica.resolver ?? "?")"
    }
  }
}
