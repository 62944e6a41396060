import ArgumentParser
import Blocklists
import Foundation
import Pihole
import Store
import UseCases

/// `sanehosts pihole`: inspect and sync a Pi-hole v6.
struct PiholeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pihole",
    abstract: "Inspect a Pi-hole v6, make its adlists match a profile, and edit its allow and deny rules.",
    discussion: """
      Every command logs in (password from --password-file, PIHOLE_PASSWORD, a saved one, or asked for \
      without echo) and always logs out, also on errors and Ctrl-C: a leaked session holds one of the \
      Pi-hole's API seats for 30 minutes.
      """,
    subcommands: [Status.self, Lists.self, Sync.self, AllowCommand.self, DenyCommand.self])

  /// The adlists as a table: type, on, domains, status, whether SaneHosts added it, address.
  static func table(_ lists: [PiholeList]) -> String {
    let rows = lists.map { list in
      [
        list.type, list.enabled ? "yes" : "no", list.number.grouped, list.statusText,
        (list.comment ?? "").hasPrefix(marker) ? "yes" : "", list.address,
      ]
    }
    return Text.table([["TYPE", "ON", "DOMAINS", "STATUS", "OURS", "ADDRESS"]] + rows)
  }

  /// The comment that marks the adlists SaneHosts added (sync never touches the others).
  static let marker = PiholeSync.marker

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Version, gravity size and the adlists' state.")
    @OptionGroup var pihole: PiholeOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var printing: OutputOptions

    struct JSON: Encodable {
      var host: String
      var summary: PiholeSummary
      var lists: [PiholeList]
    }

    func run() async throws {
      let host = try pihole.piholeHost()
      let (summary, lists) = try await pihole.withClient(data: store.directory) { client in
        (try await client.summary(), try await client.lists())
      }
      if printing.json {
        Terminal.writeOutput(Text.json(JSON(host: host.apiBase, summary: summary, lists: lists)))
        return
      }
      var out = "Pi-hole \(host.apiBase)\n"
      out += "Version: \(summary.version ?? "unknown")\n"
      out += "Blocking: \(summary.blocking ?? "unknown")\n"
      out += "Domains on gravity lists: \(summary.domainsBeingBlocked.map { $0.grouped } ?? "unknown")"
      out += summary.gravityUpdated.map { " (gravity updated \(Text.age($0)))" } ?? ""
      out += "\n"
      if let total = summary.totalQueries, let blocked = summary.blockedQueries {
        out += "Queries today: \(total.grouped), blocked \(blocked.grouped)\n"
      }
      let failed = lists.filter { $0.status == 4 }.count
      out +=
        "Adlists: \(lists.filter { $0.type == "block" }.count) block, \(lists.filter { $0.type == "allow" }.count) allow"
      out += failed > 0 ? ", \(failed) failed at the last gravity run\n" : "\n"
      if !lists.isEmpty {
        out += "\n" + PiholeCommand.table(lists)
      }
      Terminal.writeOutput(out)
    }
  }

  struct Lists: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lists", abstract: "The Pi-hole's adlists with their counts and status.")
    @OptionGroup var pihole: PiholeOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var printing: OutputOptions

    func run() async throws {
      let lists = try await pihole.withClient(data: store.directory) { try await $0.lists() }
      if printing.json {
        Terminal.writeOutput(Text.json(lists))
        return
      }
      Terminal.writeOutput(PiholeCommand.table(lists))
    }
  }

  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Make the Pi-hole's block lists match a profile's sources, then rebuild gravity.",
      discussion: """
        Adds the profile's URL sources the Pi-hole does not have (marked with the comment "\(PiholeCommand.marker) \
        (profile NAME)"), and with --remove-dropped removes lists SaneHosts added for this profile that it no \
        longer has: lists you added yourself, and lists added for other profiles, are never touched. Local \
        files are skipped (the Pi-hole cannot read this machine's files), and so are sources whose last \
        update failed (the Pi-hole would fail to fetch them too).

        The profile's allow and deny rules become the Pi-hole's domain entries with the same comment: \
        =name an exact allow, name a regex allow for it and its subdomains ((\\.|^)name$), *.name one for \
        its subdomains, /re/ a regex allow, a deny rule an exact deny. A list's own exceptions (@@||name^), \
        which the Pi-hole's gravity drops as invalid lines, become regex allows for the name and its \
        subdomains, as SaneHosts applies them. --remove-dropped also removes this \
        profile's entries whose rule is gone. Entries take effect without gravity.

        Gravity is rebuilt when lists were added or removed, and also when a synced list's content changed \
        since the Pi-hole last downloaded it (a list's new names reach the Pi-hole only through gravity); \
        otherwise it says why it is not needed. After gravity, sync waits until the Pi-hole accepts writes \
        again (it reloads its database for about two seconds) and reports what gravity found for each list.

        The Pi-hole is remembered with the profile: `sanehosts reapply`, and an allow rule for a while \
        ending, sync it again (its entries of rules that ended removed).

        Exit status: 0 on success, 1 on an error (the Pi-hole refused an item, cannot be reached, wrong \
        password, rate limit, every API seat taken), 130 or 143 when interrupted by Ctrl-C or SIGTERM; the \
        session is logged out on every path.
        """)
    @OptionGroup var pihole: PiholeOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @Flag(help: "Remove lists SaneHosts added for this profile that it no longer has.") var removeDropped = false
    @Flag(help: "Show what would change, change nothing.") var dryRun = false
    /// The rules' part of the summary (`; rules: 2 added, 0 removed, 1 kept`), empty without rules.
    static func rulesLine(_ plan: PiholeSync) -> String {
      let total = plan.rulesToAdd.count + plan.rulesToRemove.count + plan.rulesKept
      return total == 0
        ? "" : "; rules: \(plan.rulesToAdd.count) added, \(plan.rulesToRemove.count) removed, \(plan.rulesKept) kept"
    }

    @Flag(help: "Do not rebuild gravity afterwards.") var noGravity = false

    func run() async throws {
      let store = try self.store.open()
      let profile = try store.profile(self.profile.name)
      let (removeDropped, dryRun, noGravity) = (self.removeDropped, self.dryRun, self.noGravity)
      let host = try pihole.piholeHost()
      let address = "\(host.scheme)://\(host.host)\(host.port.map { ":\($0)" } ?? "")"
      try await pihole.withClient(data: store.directory) { client in
        let plan = try await PiholeSync.plan(for: profile, in: store, with: client, removeDropped: removeDropped)
        for skipped in plan.skipped {
          switch skipped.reason {
          case .localFile:
            Terminal.writeError("skipped: \(skipped.location) (the Pi-hole cannot read local files)\n")
          case .failing(let message):
            Terminal.writeError(
              "skipped: \(skipped.location) (its last update failed: \(message ?? "unknown error"); the Pi-hole would fail to fetch it too; fix the source or run `sanehosts update`)\n"
            )
          }
        }
        for address in plan.toAdd { Terminal.writeOutput("+ \(address)\n") }
        for address in plan.toRemove { Terminal.writeOutput("- \(address)\n") }
        for address in plan.changed {
          Terminal.writeOutput("~ \(address) (content changed since the Pi-hole's last download)\n")
        }
        for entry in plan.rulesToAdd { Terminal.writeOutput("+ \(entry.description)\n") }
        for entry in plan.rulesToRemove { Terminal.writeOutput("- \(entry.description)\n") }
        if dryRun {
          Terminal.writeError(
            "Would add \(plan.toAdd.count), remove \(plan.toRemove.count), keep \(plan.kept)\(plan.needsGravity ? " and rebuild gravity" : "")\(Self.rulesLine(plan)); nothing changed (--dry-run).\n"
          )
          return
        }
        try await plan.apply(with: client)
        // Kept, so that a change of the profile's rules (an allow rule ending) reaches this Pi-hole too.
        try? SyncedPiholes.remember(SyncedPiholes.Entry(host: address, profile: profile.name), in: store.directory)
        Terminal.writeError(
          "Added \(plan.toAdd.count), removed \(plan.toRemove.count), kept \(plan.kept)\(Self.rulesLine(plan)).\n")
        guard plan.needsGravity else {
          Terminal.writeError(
            "Gravity not rebuilt: no list was added or removed, and none changed since the Pi-hole last downloaded it.\n"
          )
          return
        }
        if noGravity {
          Terminal.writeError(
            "Gravity not rebuilt (--no-gravity): the Pi-hole keeps blocking the old content until it runs (`pihole -g`, or sync again).\n"
          )
          return
        }
        Terminal.writeError("Rebuilding gravity…\n")
        let synced = try await plan.rebuildGravity(with: client) { line in
          Terminal.writeError("  \(line.trimmingCharacters(in: .whitespaces))\n")
        }
        for list in synced {
          Terminal.writeError(
            "  \(list.number.grouped) domains, \(list.invalidDomains.grouped) invalid, \(list.statusText): \(list.address)\n"
          )
        }
        let failed = synced.filter { $0.status == 3 || $0.status == 4 }
        if !failed.isEmpty {
          Terminal.writeError(
            "warning: gravity could not download \(failed.count) list(s) (\(failed.map(\.address).joined(separator: ", "))): the Pi-hole uses what it had, if anything.\n"
          )
        }
      }
    }
  }

  struct AllowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "allow", abstract: "Add or remove the Pi-hole's allow rules.", subcommands: [Add.self, Remove.self])
    struct Add: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Never block these domains (or expressions).")
      @OptionGroup var rule: RuleArguments
      func run() async throws { try await rule.add(type: "allow") }
    }
    struct Remove: AsyncParsableCommand {
      static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove allow rules.")
      @OptionGroup var rule: RuleArguments
      func run() async throws { try await rule.remove(type: "allow") }
    }
  }

  struct DenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "deny", abstract: "Add or remove the Pi-hole's deny rules.", subcommands: [Add.self, Remove.self])
    struct Add: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Always block these domains (or expressions).")
      @OptionGroup var rule: RuleArguments
      func run() async throws { try await rule.add(type: "deny") }
    }
    struct Remove: AsyncParsableCommand {
      static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove deny rules.")
      @OptionGroup var rule: RuleArguments
      func run() async throws { try await rule.remove(type: "deny") }
    }
  }

  /// The arguments of `pihole allow|deny add|remove`.
  struct RuleArguments: ParsableArguments {
    @OptionGroup var pihole: PiholeOptions
    @OptionGroup var store: StoreOptions
    @Argument(help: "Domains (or, with --regex, regular expressions).") var domains: [String]
    @Flag(help: "The rules are regular expressions.") var regex = false
    @Option(help: "A comment kept with the rules.") var comment: String?

    func validate() throws {
      if domains.isEmpty { throw ValidationError("Name at least one domain.") }
    }

    func add(type: String) async throws {
      let kind = regex ? "regex" : "exact"
      let (domains, comment) = (self.domains, self.comment ?? PiholeCommand.marker)
      try await pihole.withClient(data: store.directory) { client in
        let processed = try await client.addDomains(domains, type: type, kind: kind, comment: comment)
        for item in processed.success { Terminal.writeError("Added \(type) \(kind) \(item).\n") }
        if !processed.errors.isEmpty { throw PiholeError.itemsFailed(processed.errors) }
      }
    }

    func remove(type: String) async throws {
      let kind = regex ? "regex" : "exact"
      let domains = self.domains
      try await pihole.withClient(data: store.directory) { client in
        for domain in domains {
          try await client.removeDomain(domain, type: type, kind: kind)
          Terminal.writeError("Removed \(type) \(kind) \(domain).\n")
        }
      }
    }
  }
}
