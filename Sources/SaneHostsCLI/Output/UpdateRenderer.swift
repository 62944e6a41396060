import Blocklists
import Files
import Foundation
import Loading
import Locking
import Store
import Updates

/// Shows an update as it runs: live lines on a terminal, plain log lines in a pipe, JSON lines for machines.
///
/// Events arrive from several tasks at once; the state sits behind a mutex. Live output is redrawn at
/// most ten times a second (and by `tick()` so spinners move while nothing else does).
final class UpdateRenderer: Sendable {
  enum Mode: Equatable {
    /// Redrawn lines on a terminal.
    case live
    /// One line per phase change.
    case plain
    /// One JSON object per event.
    case json
    /// Nothing but the final errors.
    case quiet
  }

  private struct State {
    var profile = ""
    var order: [String] = []
    var phases: [String: SourcePhase] = [:]
    var stage: String?
    var drawnLines = 0
    var lastDraw: ContinuousClock.Instant?
    var frame = 0
    var printed: [String: String] = [:]  // plain mode: the last phase printed per source
  }

  let mode: Mode
  private let width: Int
  private let write: @Sendable (String) -> Void
  private let state = Locked(State())

  init(mode: Mode, width: Int = 80, write: @escaping @Sendable (String) -> Void = Terminal.writeOutput) {
    self.mode = mode
    self.width = max(40, width)
    self.write = write
  }

  func handle(_ event: UpdateEvent) {
    switch mode {
    case .quiet: return
    case .json: write(Self.json(event) + "\n")
    case .plain: if let text = plainLine(event) { write(text) }
    case .live:
      let text: String? = state.withLock { state in
        switch event {
        case .started(let profile, let sources):
          state.profile = profile.name
          state.order = sources.map(\.key)
        case .source(let key, let phase):
          state.phases[key] = phase
        case .compiling(let count):
          state.stage = "compiling the profile from \(count) source\(count == 1 ? "" : "s")"
        case .saving:
          state.stage = "saving"
        case .finished:
          state.stage = nil
          return redraw(&state, force: true)
        }
        if case .source(_, .done) = event { return redraw(&state, force: true) }
        return redraw(&state, force: false)
      }
      if let text { write(text) }
    }
  }

  /// Redraws live output if due (moves spinners).
  func tick() {
    guard mode == .live else { return }
    let text: String? = state.withLock { state in
      state.frame += 1
      return redraw(&state, force: false)
    }
    if let text { write(text) }
  }

  // MARK: Live

  private func redraw(_ state: inout State, force: Bool) -> String? {
    let now = ContinuousClock.now
    if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return nil }
    state.lastDraw = now
    var lines: [String] = []
    let nameWidth = min(28, state.order.map(\.count).max() ?? 8)
    for key in state.order {
      let phase = state.phases[key] ?? .waiting
      lines.append("  \(Text.pad(key, nameWidth))  \(Self.describe(phase, frame: state.frame, key: key))")
    }
    lines.append(overall(state))
    var out = state.drawnLines > 0 ? "\u{1B}[\(state.drawnLines)A" : ""
    for line in lines {
      out += "\r\u{1B}[2K" + Self.truncate(line, width - 1) + "\n"
    }
    state.drawnLines = lines.count
    return out
  }

  private func overall(_ state: State) -> String {
    let fraction = SourcePhase.overallFraction(state.order.map { state.phases[$0] ?? .waiting })
    let done = state.order.filter { if case .done = state.phases[$0] { true } else { false } }.count
    let cells = 24
    let filled = Int((fraction * Double(cells)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: cells - filled)
    let stage = state.stage.map { "  \($0)…" } ?? ""
    return "  [\(bar)] \(Int(fraction * 100))%  \(done) of \(state.order.count) sources\(stage)"
  }

  private static let spinner = ["|", "/", "-", "\\"]

  /// One source's state: “downloading 1.2 MB of 3.4 MB (35%)”, “parsing 120,034 names”, “updated …”.
  static func describe(_ phase: SourcePhase, frame: Int = 0, key: String? = nil) -> String {
    let spin = spinner[frame % spinner.count]
    switch phase {
    case .waiting: return "  waiting"
    case .connecting(let attempt): return "\(spin) connecting\(attempt > 1 ? " (attempt \(attempt))" : "")"
    case .retrying:
      return "\(spin) \(phase.loadingState.progress?.message ?? "retrying")"
    case .downloading(let bytes, let total):
      if let total, total > 0 {
        let percent = Int(min(100, Double(bytes) * 100 / Double(total)))
        return "\(spin) downloading \(ProgressRenderer.bytes(bytes)) of \(ProgressRenderer.bytes(total)) (\(percent)%)"
      }
      return "\(spin) downloading \(ProgressRenderer.bytes(bytes))"
    case .parsing(let lines, let names):
      return "\(spin) parsing \(lines.counted("line")), \(names.counted("name"))"
    case .validating: return "\(spin) validating"
    case .saving: return "\(spin) saving"
    case .done(let outcome): return outcomeText(outcome, key: key)
    }
  }

  /// A finished source: on a line that already starts with its key, the failure's own “key: ” is left out.
  static func outcomeText(_ outcome: SourceOutcome, key: String? = nil) -> String {
    switch outcome {
    case .updated(let names, let rejected, let bytes):
      "✓ updated: \(names.counted("name")), \(rejected.grouped) rejected, \(ProgressRenderer.bytes(bytes))"
    case .unchanged(let reason):
      "= unchanged (\(reason == .notModified ? "not modified" : "same content"))"
    case .failed(let failure):
      "✗ failed: \(key.map { failure.message.removingPrefix("\($0): ") } ?? failure.message)"
    }
  }

  static func truncate(_ line: String, _ width: Int) -> String {
    line.count <= width ? line : String(line.prefix(max(1, width - 1))) + "…"
  }

  // MARK: Plain

  private func plainLine(_ event: UpdateEvent) -> String? {
    switch event {
    case .started(let profile, let sources):
      return "Updating profile \(profile.name): \(sources.count) source\(sources.count == 1 ? "" : "s")\n"
    case .source(let key, let phase):
      let text: String?
      switch phase {
      case .waiting, .downloading, .parsing: text = nil
      case .connecting(let attempt): text = attempt > 1 ? "connecting (attempt \(attempt))" : "connecting"
      case .retrying: text = phase.loadingState.progress?.message
      case .validating: text = "parsed, validating"
      case .saving: text = "saving"
      case .done(let outcome): text = Self.outcomeText(outcome, key: key)
      }
      guard let text else { return nil }
      return state.withLock { state in
        if state.printed[key] == text { return nil }
        state.printed[key] = text
        return "\(key): \(text)\n"
      }
    case .compiling(let count):
      return "Compiling the profile from \(count) source\(count == 1 ? "" : "s")\n"
    case .saving, .finished:
      return nil
    }
  }

  // MARK: JSON

  static func json(_ event: UpdateEvent) -> String {
    var object: [String: Any] = [:]
    switch event {
    case .started(let profile, let sources):
      object = ["event": "started", "profile": profile.name, "sources": sources.map(\.key)]
    case .source(let key, let phase):
      object = ["event": "source", "source": key, "phase": phase.name]
      switch phase {
      case .connecting(let attempt): object["attempt"] = attempt
      case .retrying(let attempt, let total, let delay, let reason):
        object["delaySeconds"] = delay.secondsValue
        object["attempt"] = attempt
        object["attempts"] = total
        object["reason"] = reason
      case .downloading(let bytes, let total):
        object["bytes"] = bytes
        if let total { object["total"] = total }
      case .parsing(let lines, let names):
        object["lines"] = lines
        object["names"] = names
      case .done(let outcome):
        switch outcome {
        case .updated(let names, let rejected, let bytes):
          object["names"] = names
          object["rejected"] = rejected
          object["bytes"] = bytes
        case .unchanged(let reason): object["reason"] = reason.rawValue
        case .failed(let failure):
          object["reason"] = failure.kind.rawValue
          object["message"] = failure.message
          if let suggestion = failure.suggestion { object["suggestion"] = suggestion }
        }
      case .waiting, .validating, .saving: break
      }
    case .compiling(let count):
      object = ["event": "compiling", "sources": count]
    case .saving:
      object = ["event": "saving"]
    case .finished(let summary):
      object = [
        "event": "finished", "profile": summary.run.profileName, "outcome": summary.run.outcome.rawValue,
        "updated": summary.run.updated, "unchanged": summary.run.unchanged, "failed": summary.run.failed,
        "names": summary.compiled?.names ?? 0, "recompiled": summary.recompiled,
        "seconds": (summary.elapsed.secondsValue * 1000).rounded() / 1000,
      ]
      if let run = summary.run.id { object["run"] = run }
    }
    return JSONCoding.line(object: object)
  }
}

extension String {
  /// The string without `prefix` if it starts with it.
  func removingPrefix(_ prefix: String) -> String {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
  }
}
