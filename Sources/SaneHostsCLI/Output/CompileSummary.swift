import Blocklists
import Files
import Foundation
import Loading

/// The summary of a compile, as text for people or JSON for machines.
struct CompileSummary {
  let list: CompiledList
  let report: Renderer.Report
  let format: OutputFormat
  let elapsed: Duration

  var seconds: Double { elapsed.secondsValue }

  /// Lines like `easylist.txt (hosts): 86,674 names, 86,674 unique, 0 duplicates, 12 rejected`.
  func text() -> String {
    var out = ""
    for source in list.sources {
      let format = source.format?.rawValue ?? "no names"
      out +=
        "\(source.name) (\(format)): \(source.findings.lines.counted("line")), \(source.findings.names.counted("name")), "
        + "\(source.unique.grouped) new, \(source.duplicates.grouped) duplicates, "
        + "\(source.findings.totalRejected.grouped) rejected\n"
      for (reason, count) in source.findings.rejected.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
        let sample = source.findings.samples[reason]?.first.map { " (line \($0.line): \($0.text))" } ?? ""
        out += "  \(count.grouped) \(reason.summary)\(sample)\n"
      }
      if let content = source.findings.content {
        out += "  warning: \(source.name) \(content.advice)\n"
      } else if source.findings.names == 0 && (source.findings.subdomainBlocks ?? []).isEmpty {
        out +=
          source.findings.lines == 0
          ? "  warning: the input is empty\n"
          : "  warning: no valid names; make sure it is a blocklist (hosts, domains, adblock…), not a web page\n"
      }
    }
    for rule in list.ruleReports where rule.count > 0 {
      let verb = rule.allows ? "allowed" : "added"
      out +=
        "rule \(rule.rule.text) (\(rule.rule.origin)) \(verb) \(rule.count.grouped): \(rule.samples.joined(separator: ", "))\n"
    }
    if report.compressed > 0 {
      out +=
        "\(report.compressed.counted("name")) left out: a blocked parent covers them in \(format.rawValue) format\n"
    }
    if report.publicSuffixesLeftOut > 0 {
      out +=
        "\(report.publicSuffixesLeftOut.grouped) public suffixes left out (they would block whole registries): "
        + report.publicSuffixSamples.joined(separator: ", ") + "\n"
    }
    if report.tooLongForZone > 0 {
      out +=
        "\(report.tooLongForZone.counted("name")) too long for the zone left out (with .\(Renderer.rpzOrigin) after "
        + "them they pass 253 characters): " + report.tooLongSamples.joined(separator: ", ") + "\n"
    }
    if report.exceptions > 0 {
      out +=
        "\(report.exceptions.grouped) exceptions written for allow rules under a blocked parent "
        + "(the parent's entry would block those names here)\n"
    }
    if report.unexpressedExceptions > 0 {
      out +=
        "warning: \(report.unexpressedExceptions.grouped) allow rules cannot be said in \(format.rawValue) format, "
        + "and a blocked parent's entry still blocks their names: "
        + report.unexpressedSamples.joined(separator: ", ")
        + " (use a format with exceptions: adblock, dnsmasq, unbound, rpz)\n"
    }
    if report.subdomainBlocks > 0 {
      out += "\(report.subdomainBlocks.grouped) subdomains-only blocks written (*.name: the name itself stays open)\n"
    }
    if report.unexpressedSubdomainBlocks > 0 {
      out +=
        "warning: \(report.unexpressedSubdomainBlocks.grouped) subdomains-only blocks cannot be said in \(format.rawValue) format "
        + "and are left out (blocking the name itself would over-block): "
        + report.unexpressedSubdomainSamples.joined(separator: ", ") + " (use adblock, dnsmasq or rpz)\n"
    }
    for warning in list.rules.warnings { out += "warning: \(warning)\n" }
    out += "\(report.written.counted("name")) written as \(format.rawValue) in \(Self.hundredths(seconds)) s\n"
    return out
  }

  /// The same facts as one JSON object.
  func json() -> String {
    let sources: [[String: Any]] = list.sources.map { source in
      [
        "name": source.name, "format": source.format?.rawValue ?? NSNull(), "lines": source.findings.lines,
        "content": source.findings.content?.rawValue ?? NSNull(),
        "names": source.findings.names, "unique": source.unique, "duplicates": source.duplicates,
        "rejected": Dictionary(uniqueKeysWithValues: source.findings.rejected.map { ($0.key.rawValue, $0.value) }),
        "samples": Dictionary(
          uniqueKeysWithValues: source.findings.samples.map { reason, samples in
            (reason.rawValue, samples.map { ["line": $0.line, "text": $0.text] })
          }),
      ]
    }
    let rules: [[String: Any]] = list.ruleReports.map {
      ["rule": $0.rule.text, "origin": $0.rule.origin, "allows": $0.allows, "count": $0.count, "samples": $0.samples]
    }
    let object: [String: Any] = [
      "format": format.rawValue, "written": report.written, "compressed": report.compressed,
      "publicSuffixesLeftOut": report.publicSuffixesLeftOut, "tooLongForZone": report.tooLongForZone,
      "exceptions": report.exceptions, "unexpressedExceptions": report.unexpressedExceptions,
      "uniqueNames": list.count, "sources": sources,
      "rules": rules, "seconds": seconds,
    ]
    return JSONCoding.line(object: object)
  }

  /// Seconds to two decimals, `0.03`: written by hand, as `String(format:)` looked up its arguments'
  /// conformances at run time, 0.4 ms of a one-line compile.
  static func hundredths(_ seconds: Double) -> String {
    let total = Int((max(0, seconds) * 100).rounded())
    let cents = total % 100
    return "\(total / 100).\(cents < 10 ? "0" : "")\(cents)"
  }
}
