import Foundation

/// A real systemd journal file written by `systemd-journal-remote` (package systemd-journal-remote) from
/// entries in the journal's export format, for `journalctl --file` to read.
public enum JournalFile {
  /// One entry: its time and its fields (MESSAGE, SYSLOG_IDENTIFIER, _PID, _SYSTEMD_UNIT…).
  public struct Entry: Sendable {
    /// When it was logged.
    public var time: Date
    /// Its fields.
    public var fields: [String: String]

    /// An entry.
    public init(time: Date, fields: [String: String]) {
      self.time = time
      self.fields = fields
    }
  }

  /// The export format of `entries` (fields with a line break are left out: none of a query log has one).
  public static func export(_ entries: [Entry]) -> String {
    var text = ""
    for (index, entry) in entries.enumerated() {
      let micros = Int64((entry.time.timeIntervalSince1970 * 1_000_000).rounded()) + Int64(index)
      text += "__REALTIME_TIMESTAMP=\(micros)\n__MONOTONIC_TIMESTAMP=\(1000 + index)\n"
      text += "_BOOT_ID=0123456789abcdef0123456789abcdef\n"
      for (name, value) in entry.fields.sorted(by: { $0.key < $1.key }) where !value.contains("\n") {
        text += "\(name)=\(value)\n"
      }
      text += "\n"
    }
    return text
  }

  /// Writes `entries` to a new journal file at `path` (its name must end in `.journal`).
  public static func write(_ entries: [Entry], to path: URL) async throws {
    let remote = try RequiredTool.path("systemd-journal-remote", package: "systemd-journal-remote")
    let input = path.deletingLastPathComponent().appending(path: path.lastPathComponent + ".export")
    try Data(export(entries).utf8).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: remote)
    process.arguments = ["--output=\(path.path)", input.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path.path) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path.path])
    }
  }

  /// The entries of a dnsmasq log file (`Nov 28 15:25:00 dnsmasq[77]: MESSAGE`), as syslog hands them to
  /// journald from a dnsmasq started by systemd: the message, the identifier, the pid and the unit.
  public static func dnsmasqEntries(_ log: String, at time: Date, unit: String = "dnsmasq.service") -> [Entry] {
    log.split(separator: "\n").compactMap { line in
      guard let tag = line.range(of: " dnsmasq["), let close = line[tag.upperBound...].range(of: "]: ") else {
        return nil
      }
      let pid = String(line[tag.upperBound..<close.lowerBound])
      return Entry(
        time: time,
        fields: [
          "MESSAGE": String(line[close.upperBound...]), "SYSLOG_IDENTIFIER": "dnsmasq", "_PID": pid,
          "_SYSTEMD_UNIT": unit, "PRIORITY": "6",
        ])
    }
  }
}
