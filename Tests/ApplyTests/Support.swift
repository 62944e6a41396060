import Apply
import Blocklists
import Foundation
import Locking

/// A process runner that runs nothing: it records each call and answers from a script.
final class RecordingRunner: ProcessRunning {
  /// What the fake does for a call: an output, or an error to throw.
  enum Reply: Sendable {
    case output(ProcessOutput)
    case failure(ProcessRunner.Error)
  }

  private let state = Locked<[[String]]>([])
  private let reply: @Sendable (String, [String]) -> Reply

  /// A runner answering every call with `reply` (default: success, no output).
  init(_ reply: @escaping @Sendable (String, [String]) -> Reply = { _, _ in .output(ProcessOutput(status: 0)) }) {
    self.reply = reply
  }

  /// Every call so far, the executable first.
  var calls: [[String]] { state.withLock { $0 } }

  func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
    state.withLock { $0.append([executable] + arguments) }
    switch reply(executable, arguments) {
    case .output(let output): return output
    case .failure(let error): throw error
    }
  }
}

/// Names blocked by the sample list: `metrics.example` itself is not blocked, only its `x.` subdomain.
let sampleNames = ["ads.example", "tracker.test", "x.metrics.example"]

/// A small compiled list of `sampleNames`.
func sampleList() async throws -> CompiledList {
  try await Compiler().compile([.text(sampleNames.joined(separator: "\n") + "\n", name: "t")], rules: RuleSet())
}

/// A fixed date, so rendered files are the same on every run.
let sampleDate = Date(timeIntervalSince1970: 1_800_000_000)

/// Renders `target` for the sample list into `directory` and returns the file's path.
func writeSample(_ target: ServerTarget, in directory: URL, name: String? = nil) async throws -> String {
  let bytes = try await target.render(try await sampleList(), title: "Test list", date: sampleDate)
  let url = directory.appending(path: name ?? "sanehosts-\(target.rawValue)")
  try Data(bytes).write(to: url)
  return url.path
}
