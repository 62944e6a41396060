/// What a DNS server's own checker said about a drop-in file.
public enum ConfigCheck: Sendable, Hashable {
  /// The checker accepted the file.
  case passed(tool: String)
  /// The checker rejected it; `output` is what it printed.
  case failed(tool: String, output: String)
  /// The checker is not installed, so the file was not checked.
  case unavailable(tool: String)

  /// The checker that was (or would have been) run.
  public var tool: String {
    switch self {
    case .passed(let tool), .failed(let tool, _), .unavailable(let tool): tool
    }
  }

  /// Whether the checker accepted the file.
  public var passed: Bool {
    if case .passed = self { return true }
    return false
  }

  /// One line for the user, saying what to do when the file was rejected or could not be checked.
  public var summary: String {
    switch self {
    case .passed(let tool):
      "\(tool) accepted the file."
    case .failed(let tool, let output):
      "\(tool) rejected the file: \(output.isEmpty ? "(no output)" : output) Fix the problem it names before reloading the server."
    case .unavailable(let tool):
      "\(tool) is not installed, so the file was not checked; install the server's package to check it."
    }
  }
}
