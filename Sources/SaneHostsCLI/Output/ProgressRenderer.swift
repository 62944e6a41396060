import Downloads
import Files
import Foundation
import Loading

/// Shows download events: a live bar on a terminal, plain lines in a pipe, or JSON lines for machines.
struct ProgressRenderer {
  /// How events are shown.
  enum Mode: Equatable {
    /// A redrawn line with a bar (or a spinner and byte count when the size is unknown), on stderr.
    case bar
    /// One line per phase and at most one per 10 % (or 10 MB) of progress, on stderr.
    case plain
    /// One JSON object per event, on stdout.
    case json
    /// Errors only.
    case quiet
  }

  let mode: Mode
  let label: String
  var width = 80
  private var spinner = 0
  private var lastPlainStep = -1
  private var barShown = false
  /// Where lines go; replaced in tests.
  var write: (String, Terminal.Stream) -> Void = { text, stream in
    stream == .standardOutput ? Terminal.writeOutput(text) : Terminal.writeError(text)
  }

  init(mode: Mode, label: String) {
    self.mode = mode
    self.label = label
    if mode == .bar { width = Terminal.width(.standardError) }
  }

  /// Shows one event.
  mutating func render(_ event: DownloadEvent) {
    switch mode {
    case .quiet: return
    case .json: write(Self.json(event) + "\n", .standardOutput)
    case .plain: if let line = plainLine(event) { write(line + "\n", .standardError) }
    case .bar: renderBar(event)
    }
  }

  /// Shows the closing line of a finished download.
  mutating func summary(_ done: CompletedDownload, savedTo path: String?) {
    guard mode == .bar || mode == .plain else { return }
    let place = path.map { " to \($0)" } ?? ""
    write("Saved \(Self.bytes(done.byteCount))\(place) (sha256 \(done.sha256.prefix(16))…)\n", .standardError)
  }

  private mutating func plainLine(_ event: DownloadEvent) -> String? {
    switch event {
    case .connecting(let attempt):
      return attempt == 1 ? "\(label): connecting" : "\(label): connecting (attempt \(attempt))"
    case .progress(let progress):
      let step: Int =
        if let fraction = progress.fraction { Int(fraction * 10) } else { Int(progress.bytesReceived / 10_000_000) }
      guard step > lastPlainStep else { return nil }
      lastPlainStep = step
      return "\(label): downloading \(Self.describe(progress))"
    case .retrying(let attempt, let of, let delay, let reason):
      lastPlainStep = -1
      return "\(label): \(reason.errorDescription ?? "failed"); retrying in \(delay) (attempt \(attempt) of \(of))"
    case .completed:
      return nil  // `summary` says where the list went.
    case .notModified:
      return "\(label): not modified"
    case .failed:
      return nil  // The command reports the error once, with what to do about it.
    }
  }

  private mutating func renderBar(_ event: DownloadEvent) {
    let line: String
    switch event {
    case .connecting(let attempt):
      line = attempt == 1 ? "\(label)  connecting…" : "\(label)  connecting… (attempt \(attempt))"
    case .progress(let progress):
      line = barLine(progress)
    case .retrying(let attempt, let of, _, let reason):
      line = "\(label)  \(reason.errorDescription ?? "failed") Retrying… (attempt \(attempt) of \(of))"
    case .completed, .notModified, .failed:
      if barShown { write("\r\u{1B}[K", .standardError) }
      barShown = false
      if let text = plainLine(event) { write(text + "\n", .standardError) }
      return
    }
    write("\r\u{1B}[K" + String(line.prefix(max(10, width - 1))), .standardError)
    barShown = true
  }

  /// The bar for a progress value: `name  [#####.....]  45%  2.1 MB of 4.7 MB`, or a spinner.
  mutating func barLine(_ progress: DownloadProgress) -> String {
    guard let fraction = progress.fraction else {
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      spinner = (spinner + 1) % frames.count
      return "\(label)  \(frames[spinner]) downloading \(Self.bytes(progress.bytesReceived))"
    }
    let cells = max(10, min(40, width - label.count - 30))
    let filled = Int((fraction * Double(cells)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: cells - filled)
    let total = Self.bytes(progress.totalBytes ?? progress.bytesReceived)
    return "\(label)  [\(bar)] \(Self.percent(fraction))  \(Self.bytes(progress.bytesReceived)) of \(total)"
  }

  /// "2.1 MB of 4.7 MB (45%)" or "2.1 MB".
  static func describe(_ progress: DownloadProgress) -> String {
    guard let total = progress.totalBytes, let fraction = progress.fraction else {
      return bytes(progress.bytesReceived)
    }
    return "\(bytes(progress.bytesReceived)) of \(bytes(total)) (\(percent(fraction)))"
  }

  static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded(.down)))%" }

  /// A byte count in decimal units: "512 B", "1.5 kB", "2.1 MB".
  static func bytes(_ count: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
  }

  /// One event as a JSON object.
  static func json(_ event: DownloadEvent) -> String {
    var object: [String: Any] = [:]
    switch event {
    case .connecting(let attempt):
      object = ["event": "connecting", "attempt": attempt]
    case .progress(let progress):
      object = ["event": "progress", "bytes": progress.bytesReceived]
      if let total = progress.totalBytes { object["total"] = total }
      if let fraction = progress.fraction { object["fraction"] = fraction }
    case .retrying(let attempt, let of, let delay, let reason):
      object = [
        "event": "retrying", "attempt": attempt, "of": of,
        "delaySeconds": delay.secondsValue,
        "reason": reason.errorDescription ?? "",
      ]
    case .completed(let done):
      object = [
        "event": "completed", "bytes": done.byteCount, "sha256": done.sha256, "url": done.finalURL.absoluteString,
        "status": done.statusCode, "attempts": done.attempts,
      ]
      if let etag = done.etag { object["etag"] = etag }
      if let lastModified = done.lastModified { object["lastModified"] = lastModified }
    case .notModified(let answer):
      object = ["event": "notModified", "url": answer.finalURL.absoluteString]
      if let etag = answer.validators.etag { object["etag"] = etag }
      if let lastModified = answer.validators.lastModified { object["lastModified"] = lastModified }
    case .failed(let error):
      object = ["event": "failed", "error": error.errorDescription ?? "\(error)"]
      if let suggestion = error.recoverySuggestion { object["suggestion"] = suggestion }
    }
    return JSONCoding.line(object: object)
  }
}
