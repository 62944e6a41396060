import ArgumentParser
import Blocklists
import Foundation
import Store

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
    subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add allow rules.")
    @OptionGroup var rules: RuleArguments
    func run() throws { try rules.add(.allow) }
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

  /// Adds every rule, or none when one is refused (the error names it).
  func add(_ action: ProfileRule.Action) throws {
    let store = try store.open()
    let (added, alreadyThere) = try store.addRules(rules, action: action, to: profile.name, comment: comment)
    for text in alreadyThere { Terminal.writeOutput("Already there: \(action.rawValue) rule \(text).\n") }
    for rule in added {
      Terminal.writeOutput("Added \(action.rawValue) rule \(rule.text) (\(rule.kind.rawValue)).\n")
      if let warning = rule.warning { Terminal.writeError("warning: \(warning)\n") }
    }
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
      }
      Terminal.writeOutput(
        Text.json(
          rules.map {
            RuleJSON(id: $0.id, rule: $0.text, kind: $0.kind.rawValue, comment: $0.comment, addedAt: $0.addedAt)
          }))
      return
    }
    guard !rules.isEmpty else {
      Terminal.writeOutput("No \(action.rawValue) rules. Add one: sanehosts \(action.rawValue) add example.com\n")
      return
    }
    Terminal.writeOutput(
      Text.table(
        [["#", "RULE", "KIND", "NOTE"]]
          + rules.map { [String($0.id), $0.text, $0.kind.rawValue, $0.comment ?? ""] }))
  }
}
