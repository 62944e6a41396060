import ArgumentParser
import BlockerTest
import Blocklists
import DNS
import Foundation
import Store
import UseCases

/// `sanehosts why`: why a name is blocked or not, from the profile's compiled copies and rules.
struct WhyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "why",
    abstract: "Explain why names are blocked or not: every list, line and rule.",
    discussion: """
      For each name: blocked or not in the profile, every enabled source that lists it or a parent of it \
      (the entry's line number and text in the last good copy), each allow and deny rule that applies and \
      the one that decides, whether it is a public suffix, and how each output format writes it (as \
      itself, or covered by a blocked parent in formats that block subdomains). Answered from the saved \
      copies' block set files, before anything is applied; run `sanehosts update` first. Unicode names \
      are accepted and shown in both forms. With --resolver, each name is also asked of that DNS server \
      as the blocker test asks it (A and AAAA, the CNAME chain its answer follows, an HTTPS record's \
      address hints): what the server really answers, beside what the profile says. Exit status: 0 when \
      every name is valid, 1 otherwise.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @OptionGroup var printing: OutputOptions
  @Option(
    help: ArgumentHelp(
      "Also ask this DNS server for each name, and show its answer and CNAME chain.", valueName: "IP[:port]"))
  var resolver: String?
  @Argument(help: "Names to explain, e.g. ads.example.com or bücher.example.") var names: [String]

  func validate() throws {
    if names.isEmpty { throw ValidationError("Name at least one domain, e.g. `sanehosts why ads.example.com`.") }
    if let resolver, (try? ServerAddress(parsing: resolver)) == nil {
      throw ValidationError("--resolver takes the server as IP or IP:port ([v6]:port), not “\(resolver)”.")
    }
  }

  func run() async throws {
    let store = try store.open()
    let answer: Explainer.Answer
    answer = try await Explainer(store: store, profile: profile.name).explain(
      names, resolver: try resolver.map { try ServerAddress(parsing: $0) })
    printing.write(answer) { Self.text(answer) }
    if answer.names.contains(where: { $0.verdict == .invalid }) { throw ExitCode(1) }
  }

  /// The answer as the terminal shows it.
  static func text(_ answer: Explainer.Answer) -> String {
    var out = ""
    if answer.sources.isEmpty {
      out += "Profile \(answer.profile) has no saved copy to search: run `sanehosts update`.\n"
    }
    if !answer.missing.isEmpty {
      out += "Not searched (never downloaded): \(answer.missing.joined(separator: ", ")).\n"
    }
    if !answer.unreadable.isEmpty {
      out += "Not searched (the saved copy cannot be read; run `sanehosts update --force`): "
      out += "\(answer.unreadable.joined(separator: ", ")).\n"
    }
    if !answer.compiledCurrent && !answer.sources.isEmpty {
      out += "Sources, rules or copies changed since the last compile: this is what the next `sanehosts update` "
      out += "(or `apply`) will block.\n"
    }
    for explanation in answer.names {
      if !out.isEmpty { out += "\n" }
      var title = explanation.name ?? explanation.query
      if let unicode = explanation.unicode { title += " (\(unicode))" }
      out += "\(title): \(explanation.summary)\n"
      guard explanation.verdict != .invalid else { continue }
      if explanation.listings.isEmpty {
        out += "  listed by no source of profile \(answer.profile)\n"
      }
      for listing in explanation.listings {
        var line = "  \(listing.source)"
        line += listing.exact ? " lists it" : " lists parent \(listing.matched)"
        if let format = listing.format { line += " (\(format))" }
        if let number = listing.line { line += ", line \(number.grouped)" }
        if let text = listing.text { line += ": \(text)" }
        out += line + "\n"
      }
      for rule in explanation.rules {
        out += "  \(rule.allows ? "allow" : "deny") rule \(rule.rule) (\(rule.origin))"
        if rule.matched != explanation.name { out += " on parent \(rule.matched)" }
        out += rule.decides ? ": decides\n" : "\n"
      }
      if explanation.publicSuffix {
        out += "  a public suffix: formats that block subdomains leave it out\n"
      }
      out += "  outputs: "
      out += explanation.outputGroups.map { "\($0.formats.joined(separator: ", ")) \($0.how)" }.joined(separator: "; ")
      out += "\n"
      if let server = explanation.answer {
        out += "  \(server.server) answers: \(server.outcome.rawValue) (\(server.reason))"
        if let chain = server.chain { out += "; CNAME chain \(chain.joined(separator: " → "))" }
        out += "\n"
      }
    }
    return out
  }
}
