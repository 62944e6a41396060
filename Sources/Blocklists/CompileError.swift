import Foundation

/// Why a compile could not run. Bad lines are never errors: they are counted in the findings.
public enum CompileError: Error, Sendable, Hashable {
  /// A source file could not be opened or read.
  case unreadable(path: String, detail: String)
  /// A source is a directory.
  case isDirectory(path: String)
  /// An allow or deny rule is not usable.
  case invalidRule(file: String, line: Int, text: String, reason: String)
  /// The output could not be written.
  case unwritable(path: String, detail: String)
  /// The compile was cancelled.
  case cancelled
  /// The output is a pipe whose reader went away (`sanehosts compile | head -1`): not a failure to
  /// report, the command ends quietly.
  case closedPipe(path: String)
  /// Names (or a hosts address) a renderer refused to write: not names as the parser writes them, so a
  /// block set file, rule or ledger was changed by something other than SaneHosts. Nothing was written.
  case unrenderable(samples: [String], count: Int)

  /// The error for a write to `path` that failed with `code` (an errno).
  public static func writeFailed(path: String, code: Int32) -> CompileError {
    code == EPIPE ? .closedPipe(path: path) : .unwritable(path: path, detail: String(cString: strerror(code)))
  }
}

extension CompileError: LocalizedError {
  /// What went wrong, naming the file or rule.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let path, let detail): "Cannot read \(path): \(detail.sentence)"
    case .isDirectory(let path): "\(path) is a directory, not a list."
    case .invalidRule(let file, let line, let text, let reason): "\(file):\(line): “\(text)” \(reason)."
    case .unwritable(let path, let detail): "Cannot write \(path): \(detail.sentence)"
    case .cancelled: "The compile was cancelled; nothing was written."
    case .closedPipe(let path): "The reader of \(path) went away."
    case .unrenderable(let samples, let count):
      "\(count == 1 ? "A value is" : "\(count) values are") not a name or address and would add lines to the output (\(samples.map { "“\($0)”" }.joined(separator: ", "))); nothing was written."
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .unreadable: "Check the path and its permissions."
    case .isDirectory: "Give the list files inside it instead."
    case .invalidRule:
      "Write one rule per line: example.com (and subdomains), =example.com (exact), *.example.com (subdomains only) or /regex/."
    case .unwritable: "Check the directory exists, its permissions and free space."
    case .unrenderable:
      "SaneHosts never stores such a value: something else changed the data directory. Run `sanehosts update --force` to compile again from the copies, check the rules (`sanehosts allow list`, `deny list`), and who can write the data directory."
    case .cancelled, .closedPipe: nil
    }
  }
}
