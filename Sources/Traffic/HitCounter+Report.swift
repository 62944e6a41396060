import Blocklists
import Foundation

extension HitCounter {
  /// The report: per list, the top `top` names, and what the server answered against the profile.
  public func report(profile: String, server: String, sources: [String], top: Int) -> HitReport {
    var report = HitReport(profile: profile, server: server, sources: sources, since: since, first: first, last: last)
    report.findings = findings
    report.serverTellsBlocks = serverTellsBlocks
    var perList = attribution.lists.indices.map { _ in (queries: 0, names: 0, only: 0) }
    var blocked: [(entry: Int, queries: Int)] = []
    var answered: [(entry: Int, queries: Int)] = []
    var notApplied: [(entry: Int, queries: Int)] = []
    var overridden: [String: (queries: Int, rules: Set<String>)] = [:]
    // With several states a name has a record under each: counted once.
    var asked = Set<String>()
    for (entry, record) in records.enumerated() {
      let queries = record.queries
      report.queries += queries
      if queries > 0 {
        if timeline.count == 1 {
          report.distinctNames += 1
        } else if asked.insert(nameOf(entry)).inserted {
          report.distinctNames += 1
        }
      }
      report.serverBlocked += record.serverBlocked
      let lists = answers[Int(record.answer)]
      if lists.isEmpty {
        report.blockedElsewhere += record.serverBlocked
        if queries > 0 { countOverride(of: entry, queries: queries, into: &overridden) }
        continue
      }
      report.blocked += queries
      guard queries > 0 else { continue }
      blocked.append((entry, queries))
      if record.notApplied { notApplied.append((entry, queries)) }
      if record.queries > record.serverBlocked { answered.append((entry, record.queries - record.serverBlocked)) }
      for list in lists {
        perList[Int(list)].queries += queries
        perList[Int(list)].names += 1
        if lists.count == 1 { perList[Int(list)].only += queries }
      }
    }
    report.lists = attribution.lists.indices.compactMap { index in
      let (queries, names, only) = perList[index]
      if index == attribution.denyRules, attribution.sizes[index] == 0, queries == 0 { return nil }
      var row = HitReport.ListHits(
        list: attribution.lists[index], size: attribution.sizes[index], queries: queries, names: names,
        onlyThis: only, share: report.blocked > 0 ? Double(queries) / Double(report.blocked) : 0)
      if let allowed = overridden[row.list] {
        row.allowedQueries = allowed.queries
        row.allowedBy = allowed.rules.sorted()
      }
      return row
    }
    report.top = most(blocked, top)
    report.notApplied = most(notApplied, top)
    report.notAppliedQueries = notApplied.reduce(0) { $0 + $1.queries }
    if serverTellsBlocks {
      report.answeredButBlocked = answered.reduce(0) { $0 + $1.queries }
      report.answeredNames = most(answered, top)
    }
    if byClient {
      report.clients = clients.map {
        HitReport.ClientHits(client: $0.key, queries: $0.value.queries, blocked: $0.value.blocked)
      }
      .sorted { ($0.queries, $1.client) > ($1.queries, $0.client) }
    }
    return report
  }

  /// The `top` names with the most queries (ties by name), with their lists (a name counted under
  /// several states once, with the lists of the last).
  private func most(_ counted: [(entry: Int, queries: Int)], _ top: Int) -> [HitReport.NameHits] {
    var byName: [String: (queries: Int, entry: Int)] = [:]
    for (entry, queries) in counted {
      let name = nameOf(entry)
      let known = byName[name]
      byName[name] = ((known?.queries ?? 0) + queries, max(entry, known?.entry ?? entry))
    }
    return byName.map { (name: $0.key, queries: $0.value.queries, entry: $0.value.entry) }
      .sorted { ($0.queries, $1.name) > ($1.queries, $0.name) }
      .prefix(top)
      .map { HitReport.NameHits(name: $0.name, queries: $0.queries, lists: listNames($0.entry)) }
  }

  /// When one of the profile's allow rules lets the record's name through, counts its queries for every
  /// list that would block it without the allow rules, with the rule.
  func countOverride(of entry: Int, queries: Int, into overridden: inout [String: (queries: Int, rules: Set<String>)]) {
    guard let overrides else { return }
    let name = nameOf(entry)
    // The lists first (a lookup in the block set): most names let through are listed nowhere, and the
    // rules (regular expressions among them) are asked only for those that are. The other way round
    // cost 1.1 s of 2.4 s on a 1M-line log with one regex rule.
    let without = overrides.withoutAllowRules
    let lists = without.lists(for: name)
    guard !lists.isEmpty, let rule = overrides.allowRules.decidingAllowRule(for: name) else { return }
    for list in lists {
      let key = without.lists[Int(list)]
      overridden[key, default: (0, [])].queries += queries
      overridden[key, default: (0, [])].rules.insert(rule.text)
    }
  }
}
