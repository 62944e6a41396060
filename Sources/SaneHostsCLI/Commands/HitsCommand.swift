import Apply
import ArgumentParser
import Blocklists
import Foundation
import Pihole
import Store
import Traffic
import UseCases

/// `sanehosts hits`: which lists of a profile block the network's queries, from the servers' query logs.
struct HitsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hits",
    abstract: "Count which lists block the network's queries, from the DNS servers' own query logs.",
    discussion: """
      Reads each --log (and its rotated copies beside it: FILE.1, FILE.2.gz, FILE-20261120.gz) and counts \
      every query against the profile's compiled block set, as the server applies it (a name or, for \
      dnsmasq, unbound and BIND, a parent of it; allow rules and the lists' own exceptions taken out). Per \
      list: the blocked queries and distinct names it covers, the queries only it blocks, its share of all \
      blocked queries and its size; the lists with no hit (dead weight); the most asked blocked names; and \
      the queries the server answered although the profile blocks them (a sign it is not running what was \
      applied). The profile is --profile, else the one `apply` wrote for the log's server, else the active \
      one. What the logs need: dnsmasq: log-queries (or =extra) and log-facility=FILE. unbound: \
      log-queries and log-local-actions (or log-replies), use-syslog: no, logfile. BIND: querylog yes, the \
      queries and rpz categories logged to files. A server started by systemd on Debian 12 (which has no \
      syslog daemon by default) logs to the journal: --log dnsmasq:journal (or unbound:journal, \
      bind:journal) reads the server's entries through `journalctl` by its syslog identifier (dnsmasq, \
      unbound, named), --log dnsmasq:journal:UNIT those of one unit; --since is passed to journalctl and \
      --follow follows it; --journal-file PATH reads a copied journal file instead (reading the system's \
      journal needs root or the systemd-journal group). --pihole HOST reads a Pi-hole's query log through its API \
      instead or as well (paged on one session, logged out at the end; the password from --pihole-password-file, \
      $PIHOLE_PASSWORD or the one `pihole` saved). --follow prints each blocked name with its lists as the \
      server logs it, until interrupted. Client addresses are neither printed nor kept unless --by-client \
      is given; nothing of the logs is stored. Lines that cannot be read are counted and skipped. \
      --replica NAME=PATH reads one log per replica of the fleet (`sanehosts fleet`), each counted as that \
      replica blocks (a secondary fed by transfer: the policy zone, whatever its server), and prints a \
      report per replica; --replica NAME alone reads a Pi-hole replica's log through its API.
      """)

  @OptionGroup var store: StoreOptions
  @Option(
    name: .customLong("log"),
    help: ArgumentHelp(
      "A query log: dnsmasq:PATH, unbound:PATH or bind:PATH, or KIND:journal[:UNIT] (repeat for more).",
      valueName: "KIND:PATH"))
  var logs: [String] = []
  @Option(
    help: ArgumentHelp(
      "Read --log KIND:journal from this journal file (a copy; a glob such as 'copy/*.journal' names several) instead of the system's journal.",
      valueName: "path"))
  var journalFile: String?
  @Option(
    name: .customLong("replica"),
    help: ArgumentHelp(
      "A fleet replica's log: NAME=PATH (a transfer replica: its server's format), NAME=KIND:PATH, or NAME for a Pi-hole (its API); repeat for each.",
      valueName: "NAME[=PATH]"))
  var replicas: [String] = []
  @Option(
    help: ArgumentHelp("Count only queries since then: 90m, 24h, 7d, or a date (2026-11-20).", valueName: "when"))
  var since: String?
  @OptionGroup var profile: ProfileOption
  @Option(
    help: ArgumentHelp(
      "How the profile was applied (default: as `apply` wrote it for the log's server, else the server's own target).",
      valueName: "target"))
  var target: Target?
  /// `--pihole` (its query log counted too, or alone) and how to sign in to it.
  @OptionGroup var connection: PiholeConnectionOptions
  var pihole: String? { connection.pihole }
  @Option(help: "How many names the top lists show.") var top = 20
  @Flag(help: "Count per client address too (addresses are otherwise neither printed nor kept).") var byClient = false
  @OptionGroup var printing: OutputOptions
  @Flag(help: "Print the per-list table as CSV on standard output.") var csv = false
  @Flag(
    help: """
      Follow the logs as queries arrive: print each blocked name with its lists (with --json one object a \
      line) until interrupted.
      """)
  var follow = false

  func validate() throws {
    if !replicas.isEmpty {
      guard logs.isEmpty, pihole == nil, !follow, !csv else {
        throw ValidationError(
          "--replica counts each replica's log alone: leave out --log, --pihole, --follow and --csv.")
      }
      return
    }
    if logs.isEmpty && pihole == nil {
      // The one wording of a missing log, the use case's (the dashboard says the same).
      throw ValidationError(TrafficError.noLogs.errorDescription ?? "")
    }
    if follow && pihole != nil { throw ValidationError("--follow reads log files; a Pi-hole is counted without it.") }
    if journalFile != nil && !logs.contains(where: { (try? LogSource(argument: $0))?.isJournal == true }) {
      throw ValidationError("--journal-file is read for a --log KIND:journal: add one (e.g. --log dnsmasq:journal).")
    }
    if printing.json && csv { throw ValidationError("Choose one of --json and --csv.") }
    if follow && (csv || since != nil) {
      throw ValidationError("--follow prints names as they come: no --csv or --since.")
    }
    if top < 0 { throw ValidationError("--top takes a count of 0 or more, not \(top).") }
  }

  func run() async throws {
    let store = try store.open()
    guard replicas.isEmpty else { return try await runReplicas(store) }
    let report: HitReport
    let sources = try logs.map { argument throws(TrafficError) in
      var source = try LogSource(argument: argument)
      if source.isJournal { source.journalFile = journalFile }
      return source
    }
    let request = NetworkHits.Request(
      logs: sources, since: try since.map { text throws(TrafficError) in try NetworkHits.since(text) },
      profile: profile.name, target: target, byClient: byClient, top: top)
    if follow {
      try await NetworkHits(store: store).follow(request) {
        Terminal.writeError("Following \(sources.map(\.description).joined(separator: ", ")) (Ctrl-C stops).\n")
      } emit: { item in
        Terminal.writeOutput(printing.json ? Text.jsonLine(item) : Self.feedLine(item))
      }
      return
    }
    if let pihole {
      report = try await connection.withClient(named: pihole, data: store.directory) { client in
        try await NetworkHits(store: store).report(request, pihole: client)
      }
    } else {
      report = try await NetworkHits(store: store).report(request)
    }
    if printing.json {
      Terminal.writeOutput(Text.json(report))
    } else if csv {
      Terminal.writeOutput(Self.csv(report))
    } else {
      Terminal.writeOutput(Self.text(report))
    }
  }

  /// `--replica`: one report per replica, each under its name.
  func runReplicas(_ store: Store) async throws {
    let fleet = try store.replicas(in: profile.name)
    let logs = try replicas.map { text throws(FleetHitsError) in try FleetHits.Log(argument: text, replicas: fleet) }
    let sessions = PasswordPiholeSessions(
      password: connection.noPassword
        ? nil : try PasswordPiholeSessions.password(file: connection.piholePasswordFile, data: store.directory),
      userAgent: "sanehosts/\(SaneHosts.version)")
    let reports = try await FleetHits(store: store, profile: profile.name, sessions: sessions).reports(
      logs, since: try since.map { text throws(TrafficError) in try NetworkHits.since(text) }, top: top)
    if printing.json {
      Terminal.writeOutput(Text.json(reports.map { ReplicaHits(replica: $0.replica, report: $0.report) }))
    } else {
      Terminal.writeOutput(reports.map { "== \($0.replica) ==\n" + Self.text($0.report) }.joined(separator: "\n"))
    }
  }

  /// One replica's report, for `--replica --json`.
  struct ReplicaHits: Encodable {
    var replica: String
    var report: HitReport
  }
}
