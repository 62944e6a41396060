import Apply
import Foundation
import Synchronization

/// A process runner that runs nothing: it records each call and answers from a script.
final class RecordingRunner: ProcessRunning {
  /// What the fake does for a call: an output, or an error to throw.
  enum Reply: Sendable {
    case output(ProcessOutput)
    case failure(ProcessRunner.Error)
  }

  private let state = Mutex<[[String]]>([])
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
