import Blocklists
import Foundation

/// Counts a query log's events against a profile's block set: queries and server blocks per name, then
/// per list. Keeps one record per distinct name and nothing of a line once it is counted.
///
/// Names are found by their bytes in a `NameSet` (the engine's own table, hashed with `NameHash`), each
/// with a plain record; the lists that block a name are one of a few shared answers. A million lines
/// cost no hashing of strings and no reference counting per line.
public struct HitCounter: Sendable {
  struct Record {
    var queries = 0
    var serverBlocked = 0
    /// Index into `answers`.
    var answer: Int32
    /// Whether the profile lets the name through now while the state the server runs blocks it (a rule
    /// added since the last apply).
    var notApplied = false
  }

  /// The states the server ran, oldest first: from when (nil: from the start) and how each blocks.
  let timeline: [(from: Date?, attribution: Attribution)]
  /// The profile as it is now, when its rules differ from the state the server runs last.
  let current: Attribution?
  let since: Date?
  /// Whether clients are counted.
  public let byClient: Bool
  private var index = NameSet(sourceCount: 1, capacity: 1 << 16)
  private(set) var records: [Record] = []
  private(set) var answers: [[Int32]] = [[]]
  private var answerIndex: [[Int32]: Int32] = [[]: 0]
  private(set) var clients: [String: (queries: Int, blocked: Int)] = [:]
  private var lastRecord: Int?
  private(set) var first: Date?
  private(set) var last: Date?
  /// Lines read and skipped so far.
  public var findings = LogFindings()
  /// The profile's block set without its allow rules, and its allow rules: a name let through is looked up
  /// there, to count per list the queries an allow rule overrode (nil: not counted).
  public var overrides: (withoutAllowRules: Attribution, allowRules: RuleSet)?
  /// Whether every log read says which queries its server blocked.
  public var serverTellsBlocks = true

  /// The state the server runs last (the one a query without a time is counted against).
  var attribution: Attribution { timeline[timeline.count - 1].attribution }

  /// A counter over `attribution`'s profile, leaving out what happened before `since`; per client only
  /// when `byClient` (addresses are otherwise never kept).
  public init(attribution: Attribution, since: Date?, byClient: Bool) {
    self.init(timeline: [(nil, attribution)], current: nil, since: since, byClient: byClient)
  }

  /// A counter that counts each query against the state the server ran at its time (`timeline`, oldest
  /// first, each from when it ran); `current` is the profile as it is now, when its rules differ from the
  /// last state's: names it lets through that the server still blocks are told apart ("allowed in the
  /// profile, not applied yet").
  public init(
    timeline: [(from: Date?, attribution: Attribution)], current: Attribution?, since: Date?, byClient: Bool
  ) {
    precondition(!timeline.isEmpty, "a counter needs a state to count against")
    self.timeline = timeline
    self.current = current
    self.since = since
    self.byClient = byClient
  }

  /// Counts one event; returns the lists of the profile that block its name (empty when none does).
  @discardableResult
  public mutating func count(_ event: LogEvent) -> [Int32] {
    if let since, let time = event.time, time < since { return [] }
    switch event {
    case .query(let time, let name, _, let client):
      if let time {
        if first == nil || time < first! { first = time }
        if last == nil || time > last! { last = time }
      }
      let entry = record(of: name, state: state(at: time))
      lastRecord = entry
      records[entry].queries += 1
      let lists = answers[Int(records[entry].answer)]
      if byClient, let client {
        clients[client, default: (0, 0)].queries += 1
        if !lists.isEmpty { clients[client, default: (0, 0)].blocked += 1 }
      }
      return lists
    case .blocked(let time, let name, _, let via):
      let state = state(at: time)
      let entry = record(of: name, state: state)
      records[entry].serverBlocked += 1
      // The server blocked the name through the target of its CNAME (BIND follows chains): the lists that
      // block that target block the name on this server.
      if let via, answers[Int(records[entry].answer)].isEmpty {
        let lists = timeline[state].attribution.lists(for: via)
        if !lists.isEmpty { records[entry].answer = answer(for: lists) }
      }
      return answers[Int(records[entry].answer)]
    }
  }

  /// The state the server ran at `time`: the last that started before it (the last one without a time).
  func state(at time: Date?) -> Int {
    guard timeline.count > 1, let time else { return timeline.count - 1 }
    var found = 0
    for (index, state) in timeline.enumerated() where (state.from ?? .distantPast) <= time { found = index }
    return found
  }

  /// Whether the name of the record counted last is let through by the profile now but blocked by what
  /// the server runs (the live feed's "not applied yet", decided once per name).
  var lastNotApplied: Bool { lastRecord.map { records[$0].notApplied } ?? false }

  /// The name of a record.
  func nameOf(_ entry: Int) -> String {
    let key = index.name(entry)
    guard timeline.count > 1, let separator = key.firstIndex(of: "\u{0}") else { return key }
    return String(key[..<separator])
  }

  /// The names of the lists that block a record's name.
  func listNames(_ entry: Int) -> [String] {
    answers[Int(records[entry].answer)].map { attribution.lists[Int($0)] }
  }

  /// The index of a shared answer (a set of lists), added when new.
  private mutating func answer(for lists: [Int32]) -> Int32 {
    if let known = answerIndex[lists] { return known }
    let answer = Int32(answers.count)
    answers.append(lists)
    answerIndex[lists] = answer
    return answer
  }

  /// The record of `name` under the state `state`, made (with the lists that block it) when it is new.
  private mutating func record(of name: String, state: Int) -> Int {
    // One record per name and state: a NUL and the state's number after the name when there are several.
    var key = timeline.count > 1 ? name + "\u{0}" + String(state) : name
    return key.withUTF8 { bytes in
      let hash = NameHash.hash(bytes)
      if let entry = index.entry(of: bytes, hash: hash) { return entry }
      index.insert(bytes, hash: hash, source: 0)
      let lists = timeline[state].attribution.lists(for: name)
      var record = Record(answer: answer(for: lists))
      if let current, !lists.isEmpty, current.lists(for: name).isEmpty,
        state == timeline.count - 1 || !attribution.lists(for: name).isEmpty
      {
        record.notApplied = true
      }
      records.append(record)
      return records.count - 1
    }
  }
}
