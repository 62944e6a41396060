import ArgumentParser
import DNS
import Foundation
import Store
import UseCases

extension FleetCommand {
  /// `sanehosts fleet sync`: the profile applied to every replica at once, each verified by its answers.
  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync", abstract: "Apply the profile to every replica at once, then verify each by its answers.",
      discussion: """
        The primary (this machine's BIND, made so by `apply --target bind --transfer-to …`) gets the change \
        as signed updates, and the replicas fed by transfer take it by IXFR; every Pi-hole is synced on a \
        session of its own, in parallel, gravity rebuilt only where a list changed; then every replica is \
        asked the changed names, a sample of the profile and the control domains, and waited for up to \
        --settle seconds. One replica's failure never stops the others.

        Lists and rule entries SaneHosts added to a Pi-hole for this profile that it no longer has are \
        removed.

        Exit status: 0 when every replica is verified; 5 when one is not; 1 on an error.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var piholes: FleetPiholeOptions
    @Option(
      help: ArgumentHelp("Where this machine's BIND, the primary, answers SaneHosts' updates.", valueName: "address"))
    var primaryAddress = "127.0.0.1:53"
    @Option(help: ArgumentHelp("Seconds a replica may take to show the change.", valueName: "seconds"))
    var settle: Double = 10
    @OptionGroup var printing: OutputOptions

    func validate() throws {
      if (try? ServerAddress(parsing: primaryAddress)) == nil {
        throw ValidationError("--primary-address takes IP or IP:port ([v6]:port), not “\(primaryAddress)”.")
      }
      if !(0...600).contains(settle) { throw ValidationError("--settle must be 0 to 600 seconds, not \(settle).") }
    }

    func run() async throws {
      let store = try self.store.open()
      let started = ContinuousClock.now
      let outcome = try await FleetSync(
        store: store, profile: profile.name, sessions: try piholes.sessions(data: store.directory),
        primaryAddress: try ServerAddress(parsing: primaryAddress), settle: .milliseconds(Int(settle * 1000))
      ).run()
      let elapsed = ContinuousClock.now - started
      let text = FleetCommand.syncText(outcome, seconds: elapsed / .seconds(1))
      printing.write(FleetCommand.SyncReport(outcome)) { text }
      if !outcome.allVerified { throw ExitCode(5) }
    }
  }

  /// What `fleet sync` prints: warnings, the primary's and each Pi-hole's line, the table, the count.
  static func syncText(_ outcome: FleetSync.Outcome, seconds: Double) -> String {
    var lines = outcome.warnings.map { "warning: \($0)" }
    if let primary = outcome.primary { lines.append("Primary: \(primary)") }
    lines += outcome.piholes.sorted { $0.key < $1.key }.map { "Pi-hole \($0.key): \($0.value)" }
    let verified = outcome.reports.filter { $0.verdict == .verified }.count
    let count = "\(verified) of \(outcome.reports.count) replicas verified in \(CompileSummary.hundredths(seconds)) s"
    return lines.map { $0 + "\n" }.joined() + table(outcome.reports) + count + "\n"
  }

  /// `fleet sync --json`.
  struct SyncReport: Encodable {
    var primary: String?
    var primaryFailed: Bool
    var piholes: [String: String]
    var replicas: [ReplicaReport]
    var warnings: [String]
    var allVerified: Bool

    init(_ outcome: FleetSync.Outcome) {
      primary = outcome.primary
      primaryFailed = outcome.primaryFailed
      piholes = outcome.piholes
      replicas = outcome.reports
      warnings = outcome.warnings
      allVerified = outcome.allVerified
    }
  }

  /// `sanehosts fleet status`: each replica's verdict from its own answers.
  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Check every replica by its own answers: what it serves, how far behind it is.",
      discussion: """
        Each replica is asked, through its own DNS server (a Pi-hole's too: its --resolver, else its host \
        on port 53), the names changed since it last answered as the profile had it, the names the \
        profile's rules deny and allow, a sample of the profile and the control domains. A Pi-hole's API \
        says what it holds (lists and rules still to send, its blocking switch); its answers decide. A \
        replica that answers the policy zone's SOA (a BIND secondary) shows its serial against the primary's.

        Verdicts: verified (its answers match the profile as it is now); behind (they match what it was \
        last given, but the profile changed since: run fleet sync); differs (names answered otherwise, \
        named with their answers); unreachable; refused (a Pi-hole that refused the password).

        Exit status: 0 when every replica is verified; 5 when one is not; 1 on an error.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var piholes: FleetPiholeOptions
    @Option(help: ArgumentHelp("Names of the profile sampled per replica, beside the changed ones.", valueName: "n"))
    var sample = 20
    @OptionGroup var printing: OutputOptions

    func validate() throws {
      if !(1...1000).contains(sample) { throw ValidationError("--sample must be 1 to 1000, not \(sample).") }
    }

    func run() async throws {
      let store = try self.store.open()
      let reports = try await FleetCheck(
        store: store, profile: profile.name, sessions: try piholes.sessions(data: store.directory), sample: sample
      ).run()
      printing.write(reports) {
        reports.isEmpty
          ? "No replicas yet. Add one: sanehosts fleet add NAME --pihole HOST | --resolver IP[:PORT] [--kind K]\n"
          : FleetCommand.table(reports)
      }
      if reports.contains(where: { $0.verdict != .verified }) { throw ExitCode(5) }
    }
  }

  /// The reports as a table, then each one's detail.
  static func table(_ reports: [ReplicaReport]) -> String {
    let rows = reports.map { report in
      [report.name, report.verdict.rawValue, report.address, report.serves, report.behind ?? "-"]
    }
    var text = Text.table([["NAME", "VERDICT", "ASKED AT", "SERVES", "BEHIND"]] + rows)
    for report in reports where report.verdict != .verified || !report.detail.isEmpty {
      text += "\(report.name): \(report.detail)\n"
    }
    return text
  }
}
