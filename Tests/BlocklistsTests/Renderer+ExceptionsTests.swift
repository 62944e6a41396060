import Blocklists
import Testing

@Suite("Rendering the exceptions of allow rules")
struct RendererExceptionsTests {
  static func list() async throws -> CompiledList {
    let rules = RuleSet(allow: [
      RuleSet.Rule(kind: .exact, pattern: "keep.ads.shop.website", origin: "t:1"),
      RuleSet.Rule(kind: .subdomains, pattern: "open.shop.website", origin: "t:2"),
      RuleSet.Rule(kind: .wildcard, pattern: "listed.website", origin: "t:3"),
      RuleSet.Rule(kind: .regex, pattern: "^re\\.", origin: "t:4"),
    ])
    return try await compile(
      ["shop.website\nlisted.website\nsub.listed.website\nre.shop.website\nads.other.website\n"], rules: rules)
  }

  @Test(
    "Regression: an allow rule under a blocked parent is an exception in each format's own syntax, not a name left out that the parent still blocks",
    arguments: [
      (
        OutputFormat.dnsmasq,
        [
          "server=/shop.website/ads.other.website/", "server=/listed.website/", "server=/*.listed.website/#",
          "server=/open.shop.website/#", "server=/re.shop.website/#", "server=/*.re.shop.website/",
          "server=/keep.ads.shop.website/#", "server=/*.keep.ads.shop.website/",
        ]
      ),
      (
        .unbound,
        [
          #"local-zone: "shop.website." always_null"#, #"local-zone: "ads.other.website." always_null"#,
          #"local-zone: "listed.website." transparent"#, #"local-data: "listed.website. A 0.0.0.0""#,
          #"local-data: "listed.website. AAAA ::""#, #"local-zone: "open.shop.website." transparent"#,
          #"local-zone: "re.shop.website." transparent"#, #"local-zone: "keep.ads.shop.website." transparent"#,
        ]
      ),
      (
        .rpz,
        [
          "shop.website CNAME .", "*.shop.website CNAME .", "ads.other.website CNAME .", "*.ads.other.website CNAME .",
          "ads.shop.website CNAME .", "*.ads.shop.website CNAME .", "listed.website CNAME .",
          "*.listed.website CNAME rpz-passthru.", "open.shop.website CNAME rpz-passthru.",
          "*.open.shop.website CNAME rpz-passthru.", "re.shop.website CNAME rpz-passthru.", "*.re.shop.website CNAME .",
          "keep.ads.shop.website CNAME rpz-passthru.", "*.keep.ads.shop.website CNAME .",
        ]
      ),
      (
        .adblock,
        [
          "||shop.website^", "||ads.other.website^", "||listed.website^", "@@||*.listed.website^",
          "@@||open.shop.website^", "@@|re.shop.website^", "@@|keep.ads.shop.website^",
        ]
      ),
      (.wildcard, ["*.shop.website", "*.listed.website", "*.ads.other.website"]),
    ])
  func formats(format: OutputFormat, expected: [String]) async throws {
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
