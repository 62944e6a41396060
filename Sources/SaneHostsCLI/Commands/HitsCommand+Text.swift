import Blocklists
import Foundation
import Traffic

extension HitsCommand {
  /// A time as the report shows it: local, to the minute.
  static func stamp(_ date: Date?) -> String {
    guard let date else { return "?" }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  static func percent(_ part: Int, of whole: Int) -> String {
    whole == 0 ? "0 %" : String(format: "%.1f %%", Double(part) * 100 / Double(whole))
  }

  /// The report as the terminal shows it.
  static func text(_ report: HitReport) -> String {
    var out = "Profile \(report.profile), as \(report.server) applies it; \(report.sources.count) "
    out += report.sources.count == 1 ? "file" : "files"
    out += ", \(report.findings.lines.counted("line")).\n"
    guard report.queries > 0 else {
      out += "No query in the logs" + (report.since.map { " since \(stamp($0))" } ?? "") + ".\n"
      return out + skipped(report)
    }
    out += "From \(stamp(report.first)) to \(stamp(report.last)): \(report.queries.counted("query", "queries")) for "
    out += "\(report.distinctNames.counted("name")); the profile blocks \(report.blocked.grouped) "
    out += "(\(percent(report.blocked, of: report.queries))).\n\n"
    let overridden = report.lists.contains { $0.allowedQueries > 0 }
    var rows = [["list", "names", "blocked", "names hit", "only this", "share"] + (overridden ? ["allowed"] : [])]
    for list in report.lists.sorted(by: { ($0.queries, $1.list) > ($1.queries, $0.list) }) {
      rows.append(
        [
          list.list, list.size.grouped, list.queries.grouped, list.names.grouped, list.onlyThis.grouped,
          percent(list.queries, of: report.blocked),
        ] + (overridden ? [list.allowedQueries.grouped] : []))
    }
    out += Text.table(rows)
    for list in report.lists where list.allowedQueries > 0 {
      out += "Allowed against \(list.list): \(list.allowedQueries.counted("query", "queries")) let through by "
      out += "\(list.allowedBy.joined(separator: ", ")).\n"
    }
    for list in report.deadWeight {
      let names = "\(list.size.grouped) \(list.size == 1 ? "name" : "names")"
      out += "Dead weight: \(list.list): \(names), 0 hits since \(stamp(report.since ?? report.first)).\n"
    }
    for list in report.safeToRemove {
      out += "Safe to remove: \(list.list): each of its \(list.queries.counted("hit")) is blocked by another list too, "
      out += "and no allow rule overrode it.\n"
    }
    if !report.top.isEmpty {
      out += "\nMost asked blocked names:\n"
      out += Text.table(report.top.map { ["  \($0.queries.grouped)", $0.name, $0.lists.joined(separator: ", ")] })
    }
    out += "\n" + serverSide(report)
    if let clients = report.clients, !clients.isEmpty {
      out += "\nPer client:\n"
      out += Text.table(
        [["  client", "queries", "blocked"]]
          + clients.map { ["  \($0.client)", $0.queries.grouped, $0.blocked.grouped] })
    }
    return out + skipped(report)
  }

  /// What the server did against what the profile says.
  static func serverSide(_ report: HitReport) -> String {
    var out = ""
    if let answered = report.answeredButBlocked {
      if answered == 0 {
        out += "The server blocked every query the profile blocks.\n"
      } else {
        out += "Answered although the profile blocks them: \(answered.grouped) \(answered == 1 ? "query" : "queries")"
        out += " (is the server running "
        out += "what was applied? `sanehosts apply --verify` checks):\n"
        out += Text.table(
          report.answeredNames.map { ["  \($0.queries.grouped)", $0.name, $0.lists.joined(separator: ", ")] })
      }
    } else {
      out +=
        "The logs cannot tell which queries the server blocked: \(report.blindReason ?? "they hold no block line").\n"
    }
    if !report.notApplied.isEmpty {
      let queries = report.notAppliedQueries
      out += "Allowed in the profile, not applied yet: \(queries.grouped) \(queries == 1 ? "query" : "queries")"
      out += " the server still blocks\(report.applyCommand.map { " (run `\($0)`)" } ?? ""):\n"
      out += Text.table(
        report.notApplied.map { ["  \($0.queries.grouped)", $0.name, $0.lists.joined(separator: ", ")] })
    }
    if report.blockedElsewhere > 0 {
      let queries = report.blockedElsewhere == 1 ? "query" : "queries"
      out += "Blocked by the server but not by the profile: \(report.blockedElsewhere.grouped) \(queries) "
      out += "(its other rules, or a CNAME's blocked target).\n"
    }
    return out
  }

  static func skipped(_ report: HitReport) -> String {
    let findings = report.findings
    var out = ""
    for damaged in findings.damagedFiles { out += "\nwarning: \(damaged.description).\n" }
    for file in findings.unrecognizedFiles { out += "\nwarning: \(file.description).\n" }
    guard findings.skippedLines > 0 else { return out }
    let lines = findings.skippedLines == 1 ? "line" : "lines"
    out += "\nSkipped \(findings.skippedLines.grouped) \(lines) that could not be read:\n"
    for (reason, count) in findings.skipped.sorted(by: { $0.key < $1.key }) {
      out += "  \(reason): \(count.grouped)"
      if let sample = findings.samples[reason]?.first { out += " (e.g. \(sample.file):\(sample.line): \(sample.text))" }
      out += "\n"
    }
    return out
  }

  /// A line of the live feed: the time, the name and type, the lists (or the server's own block).
  static func feedLine(_ item: FeedItem) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "HH:mm:ss"
    var line = (item.time.map { formatter.string(from: $0) } ?? "--:--:--") + "  " + item.name
    if let type = item.type { line += "  " + type }
    line +=
      item.lists.isEmpty
      ? "  blocked by the server, in no list of the profile" : "  " + item.lists.joined(separator: ", ")
    if item.notApplied { line += "  (allowed in the profile, not applied yet)" }
    if let client = item.client { line += "  (" + client + ")" }
    return line + "\n"
  }

  /// The per-list table as CSV.
  static func csv(_ report: HitReport) -> String {
    func field(_ text: String) -> String {
      text.contains(where: { ",\"\n".contains($0) })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
    var out = "list,names,blocked_queries,names_hit,only_this,share\n"
    for list in report.lists {
      out += "\(field(list.list)),\(list.size),\(list.queries),\(list.names),\(list.onlyThis),"
      out += String(format: "%.4f", list.share) + "\n"
    }
    return out
  }
}
