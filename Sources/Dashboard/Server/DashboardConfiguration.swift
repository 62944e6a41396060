import Foundation
import Store
import Traffic

/// Where the dashboard listens, what protects it, and which files it changes.
public struct DashboardConfiguration: Sendable {
  /// The address to bind (default 127.0.0.1: only this machine).
  public var host: String
  /// The port (0: any free port; the one chosen is reported when the server runs).
  public var port: Int
  /// The access token; required when `host` is not a loopback address.
  public var token: String?
  /// The data directory (store, lists, backups, settings).
  public var data: DataDirectory
  /// The hosts file the Apply page changes.
  public var hostsFile: String
  /// How many backups of each file to keep.
  public var keepBackups: Int
  /// Where the Apply page writes DNS server drop-ins (nil: each server's usual place, as `apply --target`).
  public var dropInDirectory: String?
  /// The query logs the Traffic page reads (`serve --log KIND:PATH`).
  public var queryLogs: [LogSource] = []
  /// The version `/metrics` reports (`sanehosts_build_info`).
  public var version = "unknown"
  /// How long a client may take to send a request's head before its connection is closed
  /// (`RequestLimits`).
  public var headerTimeout: Duration = .seconds(10)

  /// Creates a configuration.
  public init(
    host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, data: DataDirectory,
    hostsFile: String = "/etc/hosts", keepBackups: Int = 10, dropInDirectory: String? = nil
  ) {
    self.dropInDirectory = dropInDirectory
    self.host = host
    self.port = port
    self.token = token
    self.data = data
    self.hostsFile = hostsFile
    self.keepBackups = keepBackups
  }

  /// Whether the server only listens on this machine (127.0.0.0/8, ::1 or `localhost`).
  public var isLoopback: Bool { Self.isLoopback(host) }

  /// Whether a host name or address (as in a `Host` header, port removed) means this machine.
  public static func isLoopback(_ host: String) -> Bool {
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
    let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
  }
}
