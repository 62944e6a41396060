import Foundation

extension TestReport {
  /// The report for people: a summary line, scores by category and provider, the slowest probes, and
  /// every domain that was not blocked. `colour` adds ANSI colours (for a terminal).
  public func text(colour: Bool = false, slowest count: Int = 5) -> String {
    func paint(_ text: String, _ outcome: Outcome?) -> String {
      guard colour, let outcome else { return text }
      let code =
        switch outcome {
        case .blocked: "32"
        case .reachable: "31"
        case .leaking: "35"
        case .inconclusive: "33"
        }
      return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
    func rated(_ score: Score) -> String {
      let outcome: Outcome? =
        switch score.rating {
        case .strong: .blocked
        case .moderate: .inconclusive
        case .weak: .reachable
        case .unknown: nil
        }
      return paint(score.summary, outcome)
    }
    var out = "Blocker test\(id.map { " #\($0)" } ?? ""): \(probe.rawValue) probe via \(target), "
    out += "\(results.count) domains in \(String(format: "%.2f", Double(milliseconds) / 1000)) s "
    out += "(timeout \(String(format: "%g", Double(timeoutMilliseconds) / 1000)) s)\n"
    out += "Score: \(Self.gauge(score)) \(rated(score))  "
    out += "blocked \(score.blocked), reachable \(score.reachable), "
    out += score.leaking > 0 ? "leaking \(score.leaking), " : ""
    out += "inconclusive \(score.inconclusive)\n"
    if let scoreWarning { out += "       \(paint("⚠ \(scoreWarning): the score may be too high", .inconclusive))\n" }
    out += "\n" + table("CATEGORY", categories, rated) + "\n" + table("PROVIDER", providers, rated)
    let slow = slowest(count).filter { $0.milliseconds > 0 }
    if !slow.isEmpty {
      out += "\nSlowest probes:\n"
      for result in slow { out += "  \(result.milliseconds) ms  \(result.hostname) (\(result.outcome.rawValue))\n" }
    }
    let notBlocked = results.filter { $0.outcome != .blocked }
    if !notBlocked.isEmpty {
      out += "\nNot blocked:\n"
      for result in notBlocked {
        out += "  \(paint(result.outcome.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0), result.outcome)) "
        out += "\(result.hostname) (\(result.category), \(result.provider)): \(result.reason)"
        if let chain = result.chain, chain.count > 1 { out += "; CNAME chain \(chain.joined(separator: " → "))" }
        if let rule = result.rule { out += "; \(rule)" }
        if let lists = result.listedBy, !lists.isEmpty { out += "; listed by \(lists.joined(separator: ", "))" }
        out += "\n"
      }
    }
    if let coverage {
      out += "\nWhat blocks the test domains (as the blocker reports it):\n"
      for source in coverage.sources {
        out += "  \(String(format: "%4d", source.domains.count))  \(source.name)\n"
      }
      if !coverage.allowed.isEmpty { out += "  Allowed by a rule: \(coverage.allowed.joined(separator: ", "))\n" }
      out +=
        coverage.uncovered.isEmpty
        ? "  Every tested domain is covered.\n"
        : "  Covered by no list (\(coverage.uncovered.count)): \(coverage.uncovered.joined(separator: ", "))\n"
    }
    for warning in warnings { out += "\nwarning: \(warning)" }
    return warnings.isEmpty ? out : out + "\n"
  }

  /// A 20-cell bar of the percentage: `[██████████████░░░░░░]`.
  static func gauge(_ score: Score) -> String {
    guard let percent = score.percent else { return "[" + String(repeating: "·", count: 20) + "]" }
    let filled = Int((percent / 5).rounded())
    return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled) + "]"
  }

  private func table(_ title: String, _ groups: [GroupScore], _ rated: (Score) -> String) -> String {
    let width = max(title.count, groups.map(\.name.count).max() ?? 0) + 2
    // A leaking column only when something leaks: reports without leaks read as they always have.
    let leaks = groups.contains { $0.score.leaking > 0 }
    var out = title.padding(toLength: width, withPad: " ", startingAt: 0) + "BLOCKED  REACHABLE  "
    out += (leaks ? "LEAKING  " : "") + "INCONCL.  SCORE\n"
    for group in groups {
      let score = group.score
      out += group.name.padding(toLength: width, withPad: " ", startingAt: 0)
      out += String(format: "%7d  %9d  ", score.blocked, score.reachable)
      out += leaks ? String(format: "%7d  ", score.leaking) : ""
      out += String(format: "%8d  ", score.inconclusive)
      out += rated(score) + "\n"
    }
    return out
  }
}
