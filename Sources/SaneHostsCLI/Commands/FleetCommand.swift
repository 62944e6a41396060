import Apply
import ArgumentParser
import DNS
import Files
import Foundation
import Pihole
import Store
import UseCases

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
    subcommands: [Add.self, List.self, Show.self, Remove.self, Sync.self, Status.self],
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
    @Option(
      help: ArgumentHelp(
        "With --kind: the primary as this replica reaches it (IP or IP:port), named in the configuration printed for it.",
        valueName: "address"))
    var primary: String?
    @Option(
      help: ArgumentHelp(
        "With --kind: write the replica's configuration to this file (atomically) instead of printing it.",
        valueName: "path"))
    var write: String?
    @Option(
      help: ArgumentHelp(
        "With --kind bind or unbound: where the server keeps its copy of the zone (default: a folder its Debian package lets it write).",
        valueName: "path"))
    var copy: String?
    @Option(
      help: ArgumentHelp(
        "The replica's memory (512M, 1G): warns when the profile would fill more than half of it.",
        valueName: "size"))
    var memory: String?

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
      if kind != nil, primary == nil {
        throw ValidationError("--kind needs --primary IP[:PORT]: where the replica transfers the zone from.")
      }
      if kind == nil, primary != nil || write != nil || copy != nil {
        throw ValidationError("--primary, --write and --copy are for a replica fed by transfer: add --kind K.")
      }
      if let memory, FleetCost.mebibytes(memory) == nil {
        throw ValidationError("--memory takes a size such as 512M or 1G, not “\(memory)”.")
      }
      if let primary, (try? ServerAddress(parsing: primary)) == nil {
        throw ValidationError("--primary takes the primary as IP or IP:port ([v6]:port), not “\(primary)”.")
      }
    }

    func run() throws {
      if let pihole { _ = try PiholeHost(pihole) }
      let store = try store.open()
      let feed: Replica.Feed = pihole != nil ? .pihole : kind != nil ? .transfer : .verifiedOnly
      let secondary = try kind.map {
        try FleetCommand.secondary(kind: $0, primary: primary, copy: copy, data: store.directory)
      }
      if let refusal = secondary?.refusal { throw CommandFailure(refusal) }
      let replica = try FleetAddition.add(
        .init(
          name: name, feed: feed, pihole: pihole, resolver: resolver, kind: kind, primaryAddress: primary,
          memoryMiB: memory.flatMap(FleetCost.mebibytes)),
        to: profile.name, in: store)
      let profile = try store.profile(self.profile.name)
      let added = "Added replica \(replica.name) to profile \(profile.name): \(FleetCommand.how(replica)).\n"
      // With a transfer replica's configuration on standard output, the sentence goes to standard error.
      guard let secondary else { return Terminal.writeOutput(added) }
      Terminal.writeError(added)
      if let names = try? ProfileList.plan(profile: self.profile.name, in: store).names, names > 0 {
        Terminal.writeError(
          "Cost: \(ServerCost.secondary(secondary.kind).sentence(names: names)); check that the replica has that much free.\n"
        )
        if let warning = FleetCost.warning(for: replica, names: names) { Terminal.writeError("warning: \(warning)\n") }
      }
      if let write {
        try StagedFile.replace(write, with: Array(secondary.text.utf8), mode: secondary.key == nil ? 0o644 : 0o640)
        Terminal.writeError("Wrote its configuration to \(write): include it from the server's configuration.\n")
      } else {
        Terminal.writeOutput(secondary.text)
      }
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
        if let primary = replica.primaryAddress { out += "Transfers from: \(primary)\n" }
        if let memory = replica.memoryMiB { out += "Memory: \(memory) MiB\n" }
        out += "Added: \(replica.addedAt.formatted(.iso8601))\n"
        out +=
          "Last verified: \(replica.verifiedAt.map { $0.formatted(.iso8601) } ?? "never (sanehosts fleet status asks it)")\n"
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

  /// The configuration a secondary of `kind` adds to copy the zone from `primary`, with the transfer key
  /// when the profile's primary signs transfers.
  static func secondary(kind: String, primary: String?, copy: String?, data: DataDirectory) throws
    -> SecondaryConfiguration
  {
    guard let kind = SecondaryConfiguration.Kind(rawValue: kind) else {
      throw CommandFailure("“\(kind)” takes no zone by transfer: use bind, unbound or pdns-recursor.")
    }
    return SecondaryConfiguration(
      kind: kind, primary: try ServerAddress(parsing: primary ?? ""),
      key: FleetPrimary.find(in: data)?.transferKey, copyFile: copy)
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
