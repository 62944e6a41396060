import Blocklists
import Foundation
import Testing

@Suite("The strict reader of every output format")
struct OutputGrammarTests {
  /// Names, subdomains, a public suffix, allow rules under blocked parents and a subdomains-only rule:
  /// every kind of line a renderer writes.
  static let source = """
    0.0.0.0 ads.example.com
    0.0.0.0 sub.ads.example.com
    0.0.0.0 tracker.net
    0.0.0.0 servebbs.net
    0.0.0.0 deep.a.b.tracker.net
    ||exception-parent.org^
    """

  static let rules = RuleSet(
    allow: [
      RuleSet.Rule(kind: .exact, pattern: "ok.ads.example.com", origin: "t"),
      RuleSet.Rule(kind: .subdomains, pattern: "a.b.tracker.net", origin: "t"),
      RuleSet.Rule(kind: .wildcard, pattern: "exception-parent.org", origin: "t"),
    ],
    deny: [
      RuleSet.Rule(kind: .wildcard, pattern: "below.example", origin: "t"),
      RuleSet.Rule(kind: .exact, pattern: "printer.lan", origin: "t"),
    ])

  @Test(
    "Every line each format renders, with exceptions and subdomains-only blocks, is one it allows",
    arguments: OutputFormat.allCases)
  func rendered(format: OutputFormat) async throws {
    let list = try await compile([Self.source], rules: Self.rules)
    for namesPerLine in [1, 3, 1000] {
      var sink = ByteSink()
      try Renderer(format: format, hostsAddress: .both, namesPerLine: namesPerLine).render(list, to: &sink)
      let text = String(decoding: sink.memory, as: UTF8.self)
      #expect(OutputGrammar.violations(in: text, format: format).isEmpty, "\(format):\n\(text)")
    }
  }

  @Test("Directives of every server's configuration are named, line by line")
  func directives() {
    let cases: [(OutputFormat, String)] = [
      (.unbound, "include: \"/var/lib/sanehosts/evil.conf\""),
      (.unbound, "local-data: \"www.bank.example. A 203.0.113.7\""),
      (.unbound, "local-zone: \"x.example.\" always_null extra"),
      (.dnsmasq, "conf-file=/var/lib/sanehosts/evil.conf"),
      (.dnsmasq, "server=/bank.example/203.0.113.7"),
      (.dnsmasq, "address=/bank.example/203.0.113.7"),
      (.rpz, "$INCLUDE /etc/shadow"),
      (.rpz, "bank.example A 203.0.113.7"),
      (.rpz, "bank.example CNAME evil.example."),
      (.hosts, "0.0.0.0 a.example\u{0}"),
      (.adblock, "||a.example^$important"),
      (.domains, "a example"),
      (.wildcard, "a.example"),
    ]
    for (format, line) in cases {
      let violations = OutputGrammar.violations(in: "\(format.commentPrefix) header\n\(line)\n", format: format)
      #expect(violations.map(\.line) == [2], "\(format): \(line)")
    }
  }
}
