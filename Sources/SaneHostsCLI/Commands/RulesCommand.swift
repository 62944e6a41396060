import ArgumentParser
import Blocklists
import Foundation
import Store
import UseCases

/// The rule syntax, shown in `allow` and `deny` help.
/// The rule syntax, told from `action`'s side first (`allow --help` and `deny --help` open with their own).
private func ruleSyntax(_ action: String) -> String {
  let opening =
    action == "allow"
    ? "example.com allows the name and its subdomains (label by label: t.co does not allow fat.co); =example.com only that name; *.example.com only its subdomains; /regex/ every name the expression matches (anchor with ^…$)."
    : "example.com (or =example.com) denies the name, and its subdomains in the formats that cover them (adblock, wildcard, dnsmasq, unbound, rpz); *.example.com its subdomains only, written where a format can say so (adblock, dnsmasq, rpz) and left out, with a warning, where it cannot (hosts, domains, wildcard, unbound); a deny rule may name a local network name (printer.lan), which no list may, with a warning."
  let other =
    action == "allow"
    ? "Deny rules (`sanehosts deny --help`) add names to the block set."
    : "Allow rules (`sanehosts allow --help`): example.com the name and its subdomains, =example.com only it, *.example.com only its subdomains, /regex/ an expression."
  return """
    \(opening) \(other) Allow wins over every block. An allow rule that matches nothing a list may block (a \
    single label such as router) is kept, with a warning. `add` adds all its rules or none. Rules count at \
    once in `apply`, `compile` and `why` (they compile with the profile's rules of now); a DNS server runs \
    them once applied and reloaded (`sanehosts hits` names what is allowed but not applied yet).
    """
}

/// `sanehosts allow`: names never blocked.
struct AllowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "allow", abstract: "Add, remove and list allow rules (names never blocked).",
    discussion: ruleSyntax("allow"),
    subcommands: [Add.self, Remove.self, List.self, Expire.self], defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add allow rules, for good or for a while.",
      discussion: """
        With --for or --until the rules end: then they are removed and each profile they belonged to \
        applied again to every place it is applied to (every file `apply` wrote for it, the way it was \
        applied, and its fleet), by `sanehosts allow expire` (the Debian package's timer runs it every \
        minute), or by a running `sanehosts serve` on time. A rule given again for a while ends at the \
        later time; given without an end it stays for good. `allow list` and `status` show what ends when.
        """)
    @OptionGroup var rules: RuleArguments
    @Option(
      name: .customLong("for"),
      help: ArgumentHelp("End the rules after this long: 30m, 1h, 1h30m, 2d, 1w.", valueName: "duration"))
    var duration: String?
    @Option(help: ArgumentHelp("End the rules at this time: 18:00, 2026-12-01 18:00.", valueName: "time"))
    var until: String?

    func validate() throws {
      if duration != nil && until != nil { throw ValidationError("Give --for or --until, not both.") }
      _ = try end(now: Date())
    }

    /// When the rules end, or nil for good.
    func end(now: Date) throws -> Date? {
      do {
        if let duration { return now.addingTimeInterval(try RuleEnd.seconds(duration)) }
        if let until { return try RuleEnd.date(until, now: now) }
      } catch {
        throw ValidationError("--\(duration != nil ? "for" : "until"): \(error.localizedDescription)")
      }
      return nil
    }

    func run() throws { try rules.add(.allow, expiresAt: try end(now: Date())) }
  }

  struct Expire: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "expire", abstract: "Remove the allow rules whose time is up, and apply their profiles again.",
      discussion: """
        Removes every profile's allow rules that have ended, then applies each profile they belonged to again \
        to every place it is applied to: every file `apply` wrote for it, with the same options, reload and \
        verification, and its fleet (`fleet sync`). A reapply that fails is tried again by the next run. \
        Nothing to do takes a few milliseconds: the Debian package's sanehosts-expire.timer runs it every minute.

        Exit status: 0 when nothing ended or every place was applied again (and verified where it was \
        before); 5 when a place was not; 1 on an error.
        """)
    @OptionGroup var store: StoreOptions
    @OptionGroup var piholes: FleetPiholeOptions
    @OptionGroup var printing: OutputOptions
    @Flag(name: .shortAndLong, help: "Print nothing when nothing ended.") var quiet = false

    func run() async throws {
      let store = try store.open()
      let outcome = try await RuleExpiry(
        store: store, sessions: try? piholes.sessions(data: store.directory),
        limits: .forProcess(data: store.directory)
      ).run(now: Date())
      if printing.json {
        Terminal.writeOutput(Text.json(outcome))
      } else if !(quiet && outcome.ended.isEmpty && outcome.reapply == nil) {
        Terminal.writeOutput(Self.text(outcome))
      }
      if !outcome.succeeded { throw ExitCode(5) }
    }

    static func text(_ outcome: RuleExpiry.Outcome) -> String {
      var lines = outcome.ended.map { "Ended: allow rule \($0.rule) in \($0.profile)." }
      if outcome.ended.isEmpty && outcome.reapply == nil { lines.append("No allow rule has ended.") }
      if let reapply = outcome.reapply {
        lines += ReapplyCommand.lines(reapply)
      }
      return lines.map { $0 + "\n" }.joined()
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove allow rules (as written, or by number).")
    @OptionGroup var rules: RuleArguments
    func run() throws { try rules.remove(.allow) }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List allow rules.")
    @OptionGroup var options: RuleListOptions
    func run() throws { try options.list(.allow) }
  }
}

/// `sanehosts deny`: names always blocked.
struct DenyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deny", abstract: "Add, remove and list deny rules (names always blocked).",
    discussion: ruleSyntax("deny"),
    subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add deny rules.")
    @OptionGroup var rules: RuleArguments
    func run() throws { try rules.add(.deny) }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove deny rules (as written, or by number).")
    @OptionGroup var rules: RuleArguments
    func run() throws { try rules.remove(.deny) }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List deny rules.")
    @OptionGroup var options: RuleListOptions
    func run() throws { try options.list(.deny) }
  }
}

/// The arguments of `allow|deny add|remove`.
struct RuleArguments: ParsableArguments {
  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @Option(help: "A note kept with the rule.") var comment: String?
  @Argument(help: "Rules: example.com, =example.com, *.example.com or /regex/.") var rules: [String]

  func validate() throws {
    if rules.isEmpty { throw ValidationError("Give at least one rule, e.g. example.com.") }
  }

  /// Adds every rule, or none when one is refused (the error names it); `expiresAt`: when they end.
  func add(_ action: ProfileRule.Action, expiresAt: Date? = nil) throws {
    let store = try store.open()
    let result = try store.addRules(rules, action: action, to: profile.name, comment: comment, expiresAt: expiresAt)
    for text in result.alreadyThere { Terminal.writeOutput("Already there: \(action.rawValue) rule \(text).\n") }
    for rule in result.retimed {
      Terminal.writeOutput("Changed: \(action.rawValue) rule \(rule.text) now \(Self.ending(rule.expiresAt)).\n")
    }
    for rule in result.added {
      let ending = rule.expiresAt == nil ? "" : ", \(Self.ending(rule.expiresAt))"
      Terminal.writeOutput("Added \(action.rawValue) rule \(rule.text) (\(rule.kind.rawValue)\(ending)).\n")
      if let warning = rule.warning { Terminal.writeError("warning: \(warning)\n") }
    }
  }

  /// `until 2026-11-28 16:04 (in 59 min)`, or `for good`.
  static func ending(_ date: Date?, now: Date = Date()) -> String {
    date.map { "until \(end($0, now: now))" } ?? "for good"
  }

  /// `2026-11-28 16:04 (in 59 min)`: the ENDS column of `allow list`.
  static func end(_ date: Date, now: Date = Date()) -> String {
    "\(HitsCommand.stamp(date)) (\(RuleEnd.remaining(until: date, now: now)))"
  }

  func remove(_ action: ProfileRule.Action) throws {
    let store = try store.open()
    for text in rules {
      let rule = try store.removeRule(text, action: action, from: profile.name)
      Terminal.writeOutput("Removed \(action.rawValue) rule \(rule.text).\n")
    }
  }
}

/// The options of `allow|deny list`.
struct RuleListOptions: ParsableArguments {
  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @OptionGroup var printing: OutputOptions

  func list(_ action: ProfileRule.Action) throws {
    let store = try store.open()
    let rules = try store.rules(in: profile.name, action: action)
    if printing.json {
      struct RuleJSON: Encodable {
        var id: Int64?
        var rule, kind: String
        var comment: String?
        var addedAt: Date
        var expiresAt: Date?
      }
      Terminal.writeOutput(
        Text.json(
          rules.map {
            RuleJSON(
              id: $0.id, rule: $0.text, kind: $0.kind.rawValue, comment: $0.comment, addedAt: $0.addedAt,
              expiresAt: $0.expiresAt)
          }))
      return
    }
    guard !rules.isEmpty else {
      Terminal.writeOutput("No \(action.rawValue) rules. Add one: sanehosts \(action.rawValue) add example.com\n")
      return
    }
    Terminal.writeOutput(
      Text.table(
        [["#", "RULE", "KIND", "ENDS", "NOTE"]]
          + rules.map {
            [
              String($0.id), $0.text, $0.kind.rawValue,
              $0.expiresAt.map { RuleArguments.end($0) } ?? "",
              $0.comment ?? "",
            ]
          }))
  }
}
