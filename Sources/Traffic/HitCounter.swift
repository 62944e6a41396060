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
  }

  let attribution: Attribution
  let since: Date?
  /// Whether clients are counted.
  public let byClient: Bool
  private var index = NameSet(sourceCount: 1, capacity: 1 << 16)
  private(set) var records: [Record] = []
  private(set) var answers: [[Int32]] = [[]]
  private var answerIndex: [[Int32]: Int32] = [[]: 0]
  private(set) var clients: [String: (queries: Int, blocked: Int)] = [:]
  private(set) var first: Date?
  private(set) var last: Date?
  /// Lines read and skipped so far.
  public var findings = LogFindings()
  /// Whether every log read says which queries its server blocked.
  public var serverTellsBlocks = true

  /// A counter over `attribution`'s profile, leaving out what happened before `since`; per client only
  /// when `byClient` (addresses are otherwise never kept).
  public init(attribution: Attribution, since: Date?, byClient: Bool) {
    self.attribution = attribution
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
      let entry = record(of: name)
      records[entry].queries += 1
      let lists = answers[Int(records[entry].answer)]
      if byClient, let client {
        clients[client, default: (0, 0)].queries += 1
        if !lists.isEmpty { clients[client, default: (0, 0)].blocked += 1 }
      }
      return lists
    case .blocked(_, let name, _):
      let entry = record(of: name)
      records[entry].serverBlocked += 1
      return answers[Int(records[entry].answer)]
    }
  }

  /// The name of a record.
  func nameOf(_ entry: Int) -> String { index.name(entry) }

  /// The names of the lists that block a record's name.
  func listNames(_ entry: Int) -> [String] {
    answers[Int(records[entry].answer)].map { attribution.lists[Int($0)] }
  }

  /// The record of `name`, made (with the lists that block it) when it is new.
  private mutating func record(of name: String) -> Int {
    var utf8 = name
    return utf8.withUTF8 { bytes in
      let hash = NameHash.hash(bytes)
      if let entry = index.entry(of: bytes, hash: hash) { return entry }
      index.insert(bytes, hash: hash, source: 0)
      let lists = attribution.lists(for: name)
      let answer: Int32
      if let known = answerIndex[lists] {
        answer = known
      } else {
        answer = Int32(answers.count)
        answers.append(lists)
        answerIndex[lists] = answer
      }
      records.append(Record(answer: answer))
      return records.count - 1
    }
  }
}
