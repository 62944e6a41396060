import Foundation

/// Where a Pi-hole's API is: the base URL every request starts from, normalised from what users type.
///
/// `pi.hole`, `192.168.1.2`, `192.168.1.2:8080`, `http://pi.hole/admin`, `https://pi.hole/api/` and
/// `[fd00::2]` all work: the scheme defaults to http, `/admin` and `/api` are dropped, and the API path
/// is `/api`.
public struct PiholeHost: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`.
  public let scheme: String
  /// The host name or address (IPv6 without brackets).
  public let host: String
  /// The port, if one was given.
  public let port: Int?

  /// Parses what a user typed.
  public init(_ text: String) throws(PiholeError) {
    var rest = text.trimmingCharacters(in: .whitespaces)
    var scheme = "http"
    if let range = rest.range(of: "://") {
      scheme = rest[..<range.lowerBound].lowercased()
      rest = String(rest[range.upperBound...])
    }
    guard scheme == "http" || scheme == "https" else { throw .invalidHost(text) }
    let authority =
      rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let path = rest.dropFirst(authority.count).split(separator: "/").map(String.init)
    guard path.allSatisfy({ $0 == "admin" || $0 == "api" }) else { throw .invalidHost(text) }
    var host = authority
    var port: Int?
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { throw .invalidHost(text) }
      let after = host[host.index(after: close)...]
      if after.hasPrefix(":") {
        guard let number = Int(after.dropFirst()) else { throw .invalidHost(text) }
        port = number
      } else if !after.isEmpty {
        throw .invalidHost(text)
      }
      host = String(host[host.index(after: host.startIndex)..<close])
    } else if host.filter({ $0 == ":" }).count == 1, let colon = host.lastIndex(of: ":") {
      guard let number = Int(host[host.index(after: colon)...]) else { throw .invalidHost(text) }
      port = number
      host = String(host[..<colon])
    }
    guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "@" || $0 == "?" || $0 == "#" }),
      port.map({ (1...65535).contains($0) }) ?? true
    else { throw .invalidHost(text) }
    self.scheme = scheme
    self.host = host.lowercased()
    self.port = port
  }

  /// `http://pi.hole/api`, `http://[fd00::2]:8080/api`.
  public var apiBase: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "\(scheme)://\(shownHost)\(port.map { ":\($0)" } ?? "")/api"
  }

  public var description: String { apiBase }
}
