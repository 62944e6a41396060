import Foundation

/// A DNS server's query log in the systemd journal, read through `journalctl -o json`.
///
/// Debian 12 installs no syslog daemon by default, so a dnsmasq, unbound or BIND started by systemd logs
/// its queries to the journal only. `--log dnsmasq:journal` reads the server's lines by its syslog
/// identifier (`dnsmasq`, `unbound`, `named`), `--log dnsmasq:journal:UNIT` those of one unit; a copied
/// journal file (`--journal-file`) is read instead of the system's. Each entry becomes the line the
/// server writes to a log file of its own, stamped with the entry's time, for the server's parser.
public enum Journal {
  /// The name `--log KIND:journal` reads.
  public static let name = "journal"

  /// The syslog identifier each server logs under.
  public static func identifier(of kind: QueryLogFormat) -> String {
    switch kind {
    case .dnsmasq: "dnsmasq"
    case .unbound: "unbound"
    case .bind: "named"
    }
  }

  /// `journalctl`'s arguments: JSON lines, one unit or the server's identifier, from `since`, following.
  public static func arguments(for source: LogSource, since: Date?, follow: Bool) -> [String] {
    var arguments = ["--output=json", "--no-pager", "--quiet"]
    if let file = source.journalFile { arguments.append("--file=\(file)") }
    if let unit = source.journalUnit {
      arguments.append("--unit=\(unit)")
    } else {
      arguments.append("--identifier=\(identifier(of: source.kind))")
    }
    if let since { arguments.append("--since=@\(Int(since.timeIntervalSince1970.rounded(.down)))") }
    if follow { arguments += ["--follow", "--lines=0"] }
    return arguments
  }

  /// The line the server would have written for one journal entry: its own line on standard error, else
  /// the entry's time, the server's tag and the message as its log file would hold them.
  static func line(_ entry: JournalEntry, kind: QueryLogFormat) -> [UInt8] {
    let message = entry.message
    let pid = entry.pid.isEmpty ? Array("0".utf8) : entry.pid
    let space: [UInt8] = [0x20]
    switch kind {
    case .dnsmasq:
      // `--log-facility=-` (standard error) lines already carry `dnsmasq[PID]:`.
      if message.starts(with: Array("dnsmasq[".utf8)) { return entry.stamp + space + message }
      return entry.stamp + Array(" dnsmasq[".utf8) + pid + Array("]: ".utf8) + message
    case .unbound:
      // Standard error carries unbound's whole line, with its own time; syslog gets `[PID:THREAD] level: text`.
      if message.first == 0x5B {
        if message.firstRange(of: Array("] unbound[".utf8)) != nil { return message }
        return entry.stamp + Array(" unbound".utf8) + message
      }
      return entry.stamp + Array(" unbound[".utf8) + pid + Array(":0] ".utf8) + message
    case .bind:
      return entry.stamp + space + message
    }
  }

  /// The server's line for one JSON line of `journalctl -o json`; nil when it is not an entry with a
  /// message and a time.
  public static func line(json: String, kind: QueryLogFormat) -> String? {
    let bytes = Array(json.utf8)
    return JournalEntry(json: bytes[...]).map { String(decoding: line($0, kind: kind), as: UTF8.self) }
  }

  /// Runs `journalctl` for `source` to the end and hands each entry's line to `body`, numbered from 1.
  /// Throws `.unreadable` with journalctl's own words when it fails (no journal, not allowed to read it).
  public static func read(
    _ source: LogSource, since: Date?, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void
  ) throws(TrafficError) {
    let stream = try JournalStream(arguments(for: source, since: since, follow: false), source: source)
    var number = 0
    while let chunk = stream.readBlocking() {
      stream.lines(chunk) { json in
        number += 1
        guard let line = entryLine(json, kind: source.kind) else { return }
        line.withUnsafeBufferPointer { body($0, number) }
      }
    }
    let status = stream.wait()
    guard status == 0 else {
      throw .unreadable(
        path: source.description, reason: stream.errors().nonEmpty ?? "journalctl exited with \(status)")
    }
  }

  /// One JSON line's server line.
  static func entryLine(_ json: ArraySlice<UInt8>, kind: QueryLogFormat) -> [UInt8]? {
    JournalEntry(json: json).map { line($0, kind: kind) }
  }
}

extension String {
  /// The text trimmed, or nil when nothing is left.
  fileprivate var nonEmpty: String? {
    let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension LogSource {
  /// Whether this is a server's log in the systemd journal (`dnsmasq:journal`, `dnsmasq:journal:UNIT`).
  public var isJournal: Bool { path == Journal.name || path.hasPrefix(Journal.name + ":") }

  /// The unit `KIND:journal:UNIT` names; nil for the server's identifier.
  public var journalUnit: String? {
    guard path.hasPrefix(Journal.name + ":") else { return nil }
    let unit = String(path.dropFirst(Journal.name.count + 1))
    return unit.isEmpty ? nil : unit
  }
}
