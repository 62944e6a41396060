import Blocklists

/// Where `apply` writes: the hosts file's managed section, or one DNS server's drop-in. The one table of
/// targets the command line, the dashboard and the docs read.
public enum Target: Sendable, Hashable {
  /// The managed section of the hosts file.
  case hosts
  /// A DNS server's whole drop-in file.
  case server(ServerTarget)

  /// Every target, the hosts file first.
  public static let all: [Target] = [.hosts] + ServerTarget.allCases.map(Target.server)

  /// Every target's name, for messages: `hosts, dnsmasq, …`.
  public static var names: String { all.map(\.name).joined(separator: ", ") }

  /// The target named `name`, or nil when there is none (never the hosts file by default).
  public init?(name: String) {
    guard let target = Self.all.first(where: { $0.name == name }) else { return nil }
    self = target
  }

  /// The name on the command line and in the dashboard.
  public var name: String {
    switch self {
    case .hosts: "hosts"
    case .server(let server): server.rawValue
    }
  }

  /// The DNS server, or nil for the hosts file.
  public var server: ServerTarget? {
    if case .server(let server) = self { return server }
    return nil
  }

  /// What the dashboard's menu calls it.
  public var label: String { server?.label ?? "Hosts file" }

  /// What it writes and what that blocks, for `--help` and the docs.
  public var summary: String {
    server?.kind.summary
      ?? "a managed section between two marker lines, the rest kept byte for byte: 0.0.0.0 (or ::) per exact name"
  }

  /// The format of the file written.
  public var format: OutputFormat { server?.format ?? .hosts }

  /// What the file can express, as the resolver answers it.
  public var capabilities: Capabilities {
    server?.kind.capabilities
      ?? Capabilities(subdomains: false, exceptions: false, everyRecordType: false, cnameTargets: false)
  }

  /// One line per target for help texts and docs: `name: summary`.
  public static var table: String {
    all.map { "\($0.name): \($0.summary)." }.joined(separator: "\n")
  }
}
