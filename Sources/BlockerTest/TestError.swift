import Foundation

/// Why a blocker test gave no score: reported instead of a fake one.
public enum TestError: Error, Sendable, Hashable {
  /// No control domain got an answer: the resolver or network does not work.
  case noWorkingResolver(target: String, reasons: [String])
  /// Every control domain was blocked: the resolver blocks everything, so a score means nothing.
  case controlsBlocked(target: String, reasons: [String])
  /// Nothing to test.
  case emptyRegistry
  /// The run was cancelled.
  case cancelled
}

extension TestError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .noWorkingResolver(let target, let reasons):
      "No control domain resolved through \(Self.named(target)) (\(Self.join(reasons))): DNS is not working, so there is no score."
    case .controlsBlocked(let target, let reasons):
      "\(Self.named(target).prefix(1).uppercased() + Self.named(target).dropFirst()) blocks even the control domains (\(Self.join(reasons))): it blocks everything or cannot reach the internet, so a score would mean nothing."
    case .emptyRegistry:
      "There is no domain to test."
    case .cancelled:
      "The test was cancelled."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .noWorkingResolver:
      "Check the network and the resolver address (--resolver IP[:port]), or raise --timeout."
    case .controlsBlocked:
      "Check the network and the resolver's upstream servers, and the blocker's allow list and catch-all rules."
    case .emptyRegistry:
      "Choose categories that exist (see `sanehosts registry list`), or add domains with `sanehosts registry add`."
    case .cancelled:
      nil
    }
  }

  private static func join(_ reasons: [String]) -> String {
    Array(Set(reasons)).sorted().prefix(3).joined(separator: "; ")
  }

  /// “the system resolver”, “the DNS server 127.0.0.1:53”.
  static func named(_ target: String) -> String {
    guard let first = target.first, first.isNumber || first == "[" else { return "the \(target)" }
    return "the DNS server \(target)"
  }
}
