import ArgumentParser
import Foundation
import Store
import UseCases

/// `sanehosts reapply`: the profile applied again to every place it is applied to, the way it was.
struct ReapplyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reapply", abstract: "Apply again everywhere a profile is applied, the way it was applied.",
    discussion: """
      Every file `apply` wrote (the hosts file's section, each DNS server's drop-in) is written again with \
      the profile it holds and the options it was applied with (address, reload, check, the fleet's \
      primary), and verified again where it was verified; a profile with a fleet is synced (`fleet sync`). \
      A file applied before SaneHosts recorded how is named: apply it once more by hand. One place failing \
      never stops the others. Run as root on a data directory another user owns (the Debian package's), it \
      takes from it only /etc/hosts, each DNS server's default drop-in and the TARGET:PATH places of \
      SANEHOSTS_APPLY_PLACES (in /etc/default/sanehosts), never a symbolic link, each server reloaded its own \
      way: that user cannot make root write another file. An allow rule ending (`allow expire`) runs this for its profile; the Debian \
      package's sanehosts-apply.service runs it as root when the dashboard, which runs as its own user, \
      asks for an apply.

      Exit status: 0 when every place was applied (and verified where it was before); 5 when one was not; \
      1 on an error.
      """)

  @OptionGroup var store: StoreOptions
  @Option(
    name: .customLong("profile"),
    help: ArgumentHelp(
      "Only the places holding this profile (repeat for more; default: every place).", valueName: "name"))
  var profiles: [String] = []
  @OptionGroup var piholes: FleetPiholeOptions
  @Option(help: ArgumentHelp("Seconds a fleet's replica may take to show the change.", valueName: "seconds"))
  var settle: Double = 10
  @Flag(name: .shortAndLong, help: "Print only failures.") var quiet = false
  @Flag(
    help:
      "Drop the reapplies an allow rule's end left pending (all, or --profile's) instead of applying: nothing retries them; the places keep what they hold."
  )
  var dropPending = false
  @OptionGroup var printing: OutputOptions

  func validate() throws {
    if !(0...600).contains(settle) { throw ValidationError("--settle must be 0 to 600 seconds, not \(settle).") }
  }

  func run() async throws {
    let store = try store.open()
    for profile in profiles { _ = try store.profile(profile) }
    if dropPending {
      let dropped =
        profiles.isEmpty
        ? PendingReapply.drop(in: store.directory)
        : profiles.flatMap { PendingReapply.drop(profile: $0, in: store.directory) }
      Terminal.writeOutput(
        dropped.isEmpty
          ? "No reapply was pending.\n" : dropped.map { "Dropped the pending reapply of \($0.description)\n" }.joined())
      return
    }
    let outcome = await Reapply(
      store: store, profiles: profiles.isEmpty ? nil : Set(profiles),
      sessions: try piholes.sessions(data: store.directory), settle: .milliseconds(Int(settle * 1000)),
      limits: .forProcess(data: store.directory)
    ).run()
    if printing.json {
      Terminal.writeOutput(Text.json(outcome))
    } else {
      let lines = Self.lines(outcome, failuresOnly: quiet)
      if !lines.isEmpty { Terminal.writeOutput(lines.map { $0 + "\n" }.joined()) }
    }
    if !outcome.succeeded { throw ExitCode(5) }
  }

  /// One line per place: `/etc/hosts (hosts, profile default): 12 names, +1 −0`; a failure marked.
  static func lines(_ outcome: Reapply.Outcome, failuresOnly: Bool = false) -> [String] {
    if outcome.places.isEmpty {
      return failuresOnly ? [] : ["Applied nowhere yet: nothing to apply again (`sanehosts apply`)."]
    }
    return outcome.places.filter { !failuresOnly || $0.failed }.map { place in
      let what =
        place.target == "fleet"
        ? "fleet of \(place.profile)" : "\(place.path) (\(place.target), profile \(place.profile))"
      return (place.failed ? "FAILED " : "") + "\(what): \(place.line)"
    }
  }
}
