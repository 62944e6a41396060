import Foundation

/// Why a query got no usable answer.
public enum ResolverError: Error, Sendable, Hashable {
  /// No reply came before the deadline.
  case timeout(server: String, after: Duration)
  /// The server cannot be reached: nothing listens on its port (ICMP port unreachable), no route, or it
  /// closed a TCP connection without answering.
  case unreachable(server: String, detail: String)
  /// Only replies that are not DNS messages came before the deadline; the last one's problem.
  case malformedReply(MessageError)
  /// The server is not `IP`, `IP:port` or `[IPv6]:port`.
  case invalidServer(String)
  /// The name asked for is not a valid domain name.
  case invalidName(String, reason: MessageError.NameProblem)
  /// The task was cancelled before an answer came.
  case cancelled
  /// The system refused a socket operation.
  case socket(operation: String, detail: String)
  /// The server refused a dynamic update of `zone` with `code`; `signature` is the TSIG error it gave
  /// (16 BADSIG, 17 BADKEY, 18 BADTIME), if any.
  case updateRejected(zone: String, server: String, code: ResponseCode, signature: UInt16?)
  /// The server refused to transfer `zone` with `code`.
  case transferRefused(zone: String, server: String, code: ResponseCode)
}

extension ResolverError: LocalizedError {
  /// What went wrong, naming the server or value concerned.
  public var errorDescription: String? {
    switch self {
    case .timeout(let server, let after):
      "The DNS server \(server) did not answer within \(after.secondsText)."
    case .unreachable(let server, let detail):
      "The DNS server \(server) cannot be reached: \(detail)."
    case .malformedReply(let error):
      "The DNS server's reply is damaged: \(error.localizedDescription)"
    case .invalidServer(let text):
      "“\(text)” is not a DNS server address."
    case .invalidName(let name, let reason):
      "“\(name)” is not a valid DNS name: \(reason)."
    case .cancelled:
      "The DNS query was cancelled."
    case .socket(let operation, let detail):
      "The system refused to \(operation): \(detail)."
    case .transferRefused(let zone, let server, let code):
      "The DNS server \(server) refused to transfer \(zone): \(code)."
    case .updateRejected(let zone, let server, let code, let signature):
      "The DNS server \(server) refused the update of \(zone): \(code)\(signature.map { ", " + Self.signatureText($0) } ?? "")."
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .timeout:
      "Check that the server is running and that no firewall drops DNS (port 53, UDP and TCP), or allow more time."
    case .unreachable:
      "Check the server's address and port, and that it is running."
    case .malformedReply:
      "Check that the address is a DNS server's and not another service's."
    case .invalidServer:
      "Write an IP address, optionally with a port: 192.0.2.1, 192.0.2.1:5353, ::1 or [::1]:5353."
    case .invalidName:
      "Use labels of 1–63 ASCII letters, digits or hyphens separated by dots; write an internationalized name in punycode (xn--…)."
    case .cancelled:
      nil
    case .socket:
      "Check the limit on open files (ulimit -n) and the network configuration."
    case .updateRejected(_, _, let code, let signature):
      switch (code, signature) {
      case (_, 18?): "Set this machine's clock right (TSIG allows 300 s between the two clocks)."
      case (_, 16?), (_, 17?), (.other(9), _):
        "Give the key the server has in its allow-update statement (the same name and secret)."
      case (.refused, _): "Let this machine update the zone: allow-update { key \"NAME\"; }; in the zone's statement."
      case (.notImp, _):
        "Make the server the zone's primary (type primary) with allow-update; a secondary takes no updates."
      default: "Read the server's log for the reason."
      }
    case .transferRefused:
      "Check that the server is the zone's primary and that its allow-transfer names this machine's address or key."
    }
  }

  /// A TSIG error's name.
  static func signatureText(_ code: UInt16) -> String {
    switch code {
    case 16: "the signature is wrong (BADSIG)"
    case 17: "the key is unknown to it (BADKEY)"
    case 18: "the clocks differ by more than 300 s (BADTIME)"
    default: "TSIG error \(code)"
    }
  }
}

extension Duration {
  /// The duration in seconds, as `1.5 s`.
  var secondsText: String {
    let (seconds, attoseconds) = components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return String(format: "%g s", value)
  }
}
