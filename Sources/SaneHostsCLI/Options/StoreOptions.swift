import ArgumentParser
import Blocklists
import Files
import Foundation
import Store

/// `--data-dir` and `--profile`, shared by every command that uses the store.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .customLong("data-dir"),
    help: ArgumentHelp(
      "Where SaneHosts keeps its data (default: $SANEHOSTS_HOME, else $XDG_DATA_HOME/sanehosts, else ~/.local/share/sanehosts).",
      valueName: "path"))
  var dataDirectory: String?

  /// The resolved data directory.
  var directory: DataDirectory { DataDirectory.resolve(explicit: dataDirectory) }

  /// Opens the store.
  func open() throws -> Store { try Self.open(directory) }

  /// Opens the store in `directory`.
  static func open(_ directory: DataDirectory) throws -> Store {
    return try Store.open(directory)
  }
}

/// Small text helpers for tables and ages.
enum Text {
  /// Pads a cell to a width (or cuts it with “…”).
  static func pad(_ text: String, _ width: Int) -> String {
    if text.count > width { return String(text.prefix(max(1, width - 1))) + "…" }
    return text + String(repeating: " ", count: width - text.count)
  }

  /// Lines of columns separated by two spaces, each column as wide as its widest cell.
  static func table(_ rows: [[String]]) -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { index, cell in index == row.count - 1 ? cell : pad(cell, widths[index]) }
        .joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// “+1,234”, “−5,678”, “0”: a change with its sign.
  static func signed(_ value: Int) -> String {
    value > 0 ? "+\(value.grouped)" : value < 0 ? "−\((-value).grouped)" : "0"
  }

  /// “just now”, “5 min ago”, “3 h ago”, “2 days ago”, “never”.
  static func age(_ date: Date?, now: Date = Date()) -> String {
    guard let date else { return "never" }
    let seconds = Int(now.timeIntervalSince(date))
    switch seconds {
    case ..<60: return "just now"
    case ..<3600: return "\(seconds / 60) min ago"
    case ..<86_400: return "\(seconds / 3600) h ago"
    default:
      let days = seconds / 86_400
      return days == 1 ? "1 day ago" : "\(days) days ago"
    }
  }

  /// An approximate count: “3.4k”, “170k”, “1.2M”.
  static func approximate(_ count: Int) -> String {
    switch count {
    case ..<1000: return "\(count)"
    case ..<10_000: return String(format: "%.1fk", Double(count) / 1000)
    case ..<1_000_000: return "\(count / 1000)k"
    default: return String(format: "%.1fM", Double(count) / 1_000_000)
    }
  }

  /// JSON text of an encodable value, keys sorted, dates as ISO 8601.
  static func json<T: Encodable>(_ value: T) -> String { JSONCoding.text(value, pretty: true) }

  /// JSON of an encodable value on one line (an event among others), keys sorted, dates as ISO 8601.
  static func jsonLine<T: Encodable>(_ value: T) -> String { JSONCoding.text(value) }
}
