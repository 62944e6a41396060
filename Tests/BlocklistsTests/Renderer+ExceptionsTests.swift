import Blocklists
import Testing

@Suite("Rendering the exceptions of allow rules")
struct RendererExceptionsTests {
  static func list() async throws -> CompiledList {
    let rules = RuleSet(allow: [
      RuleSet.Rule(kind: .exact, pattern: "keep.ads.shop.example", origin: "t:1"),
      RuleSet.Rule(kind: .subdomains, pattern: "open.shop.example", origin: "t:2"),
      RuleSet.Rule(kind: .wildcard, pattern: "listed.example", origin: "t:3"),
      RuleSet.Rule(kind: .regex, pattern: "^re\\.", origin: "t:4"),
    ])
    return try await compile(
      ["shop.example\nlisted.example\nsub.listed.example\nre.shop.example\nads.other.example\n"], rules: rules)
  }

  @Test(
    "Regression: an allow rule under a blocked parent is an exception in each format's own syntax, not a name left out that the parent still blocks",
    arguments: [
      (
        ListFormat.dnsmasq,
        [
          "server=/shop.example/ads.other.example/", "server=/listed.example/", "server=/*.listed.example/#",
          "server=/open.shop.example/#", "server=/re.shop.example/#", "server=/*.re.shop.example/",
          "server=/keep.ads.shop.example/#", "server=/*.keep.ads.shop.example/",
        ]
      ),
      (
        .unbound,
        [
          #"local-zone: "shop.example." always_null"#, #"local-zone: "ads.other.example." always_null"#,
          #"local-zone: "listed.example." transparent"#, #"local-data: "listed.example. A 0.0.0.0""#,
          #"local-data: "listed.example. AAAA ::""#, #"local-zone: "open.shop.example." transparent"#,
          #"local-zone: "re.shop.example." transparent"#, #"local-zone: "keep.ads.shop.example." transparent"#,
        ]
      ),
      (
        .rpz,
        [
          "shop.example CNAME .", "*.shop.example CNAME .", "ads.other.example CNAME .", "*.ads.other.example CNAME .",
          "ads.shop.example CNAME .", "*.ads.shop.example CNAME .", "listed.example CNAME .",
          "*.listed.example CNAME rpz-passthru.", "open.shop.example CNAME rpz-passthru.",
          "*.open.shop.example CNAME rpz-passthru.", "re.shop.example CNAME rpz-passthru.", "*.re.shop.example CNAME .",
          "keep.ads.shop.example CNAME rpz-passthru.", "*.keep.ads.shop.example CNAME .",
        ]
      ),
      (
        .adblock,
        [
          "||shop.example^", "||ads.other.example^", "||listed.example^", "@@||*.listed.example^",
          "@@||open.shop.example^", "@@|re.shop.example^", "@@|keep.ads.shop.example^",
        ]
      ),
      (.wildcard, ["*.shop.example", "*.listed.example", "*.ads.other.example"]),
    ])
  func formats(format: ListFormat, expected: [String]) async throws {
    var sink = ByteSink()
    let report = try Renderer(format: format, namesPerLine: format == .dnsmasq ? .max : 1).render(
      try await Self.list(), to: &sink)
    let text = String(decoding: sink.memory, as: UTF8.self)
    let body = text.split(separator: "\n").map(String.init).filter {
      !$0.hasPrefix(format.commentPrefix) && !$0.hasPrefix("[") && !$0.hasPrefix("$TTL") && !$0.hasPrefix("@ ")
        && $0 != "server:"
    }
    #expect(body == expected, "\(text)")
    if format == .wildcard {
      #expect(report.unexpressedExceptions == 4 && report.exceptions == 0)
    } else {
      #expect(report.exceptions == 4 && report.unexpressedExceptions == 0)
    }
  }
}
