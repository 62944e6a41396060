import ArgumentParser
import Blocklists
import Foundation
import Store
import UseCases

/// `sanehosts sources overlap`: what each source adds, and how much the sources share.
struct OverlapCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "overlap",
    abstract: "Show what each source adds (unique names) and how much the sources overlap.",
    discussion: """
      Per enabled source: its distinct names, those no other enabled source lists, and its share of all \
      the sources' names; then the matrix of “x % of the row's names are in the column's list”, and for \
      each pair the Jaccard index (shared ÷ listed by either) in --json and --csv. A source that adds \
      under 1 % unique names gets a note. Read from the saved copies, before rules; run \
      `sanehosts update` first.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @OptionGroup var printing: OutputOptions
  @Flag(help: "Print CSV on standard output: one row per ordered pair of sources, the diagonal included.")
  var csv = false

  func validate() throws {
    if printing.json && csv { throw ValidationError("Choose one of --json and --csv.") }
  }

  func run() async throws {
    let store = try store.open()
    let report: Overlap.Report
    report = try await Overlap.report(profile: profile.name, in: store)
    if printing.json {
      Terminal.writeOutput(Text.json(JSONReport(report)))
    } else if csv {
      Terminal.writeOutput(Self.csv(report))
    } else {
      Terminal.writeOutput(Self.text(report))
    }
  }

  /// The report without the raw counts it was computed from.
  struct JSONReport: Encodable {
    var profile: String
    var total: Int
    var sources: [Overlap.Report.Source]
    var pairs: [Overlap.Report.Pair]
    var missing: [String]

    init(_ report: Overlap.Report) {
      profile = report.profile
      total = report.total
      sources = report.sources
      pairs = report.pairs
      missing = report.missing
    }
  }

  static func text(_ report: Overlap.Report) -> String {
    guard !report.sources.isEmpty else {
      return "Profile \(report.profile) has no saved copy to compare: run `sanehosts update`.\n"
    }
    var out =
      "Profile \(report.profile): \(report.sources.count.counted("source")), \(report.total.counted("distinct name"))\n\n"
    var rows = [["#", "SOURCE", "NAMES", "UNIQUE", "UNIQUE %", "SHARE %"]]
    for (index, source) in report.sources.enumerated() {
      rows.append([
        String(index + 1), source.key, source.names.grouped, source.unique.grouped, percent(source.uniquePercent),
        percent(source.sharePercent),
      ])
    }
    out += Text.table(rows)
    for source in report.sources {
      if let note = source.note { out += "! \(source.key) \(note)\n" }
    }
    if !report.missing.isEmpty {
      out += "Left out (never downloaded): \(report.missing.joined(separator: ", ")).\n"
    }
    if report.sources.count > 1 {
      out += "\n% of the row's names that the column's source lists too:\n"
      let count = report.sources.count
      var matrix = [[""] + (1...count).map(String.init)]
      for row in 0..<count {
        matrix.append(
          [String(row + 1)]
            + (0..<count).map { column in
              row == column ? "-" : String(Int(report.percent(of: row, in: column).rounded()))
            })
      }
      out += Text.table(matrix)
    }
    return out
  }

  static func percent(_ value: Double) -> String { String(format: "%.1f", value) }

  static func csv(_ report: Overlap.Report) -> String {
    var out = "a,b,names_a,unique_a,names_b,shared,jaccard,a_in_b_percent\n"
    let count = report.sources.count
    for a in 0..<count {
      for b in 0..<count {
        let overlap = report.overlap
        out +=
          [
            field(report.sources[a].key), field(report.sources[b].key), String(report.sources[a].names),
            String(report.sources[a].unique), String(report.sources[b].names), String(overlap.shared(a, b)),
            String(format: "%.4f", a == b ? 1.0 : overlap.jaccard(a, b)),
            String(format: "%.2f", report.percent(of: a, in: b)),
          ].joined(separator: ",") + "\n"
      }
    }
    return out
  }

  /// A CSV field, quoted when it holds a comma, a quote or a line break.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
