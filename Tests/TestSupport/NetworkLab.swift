import Apply
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Hosts on a real network stack for a test: each host is a network namespace (`ip netns`) joined by a
/// veth pair to a bridge in the test's own namespace, so traffic between the test and every host, and
/// between hosts, crosses real interfaces and addresses (a zone transfer, a NOTIFY, a refused peer).
///
/// Needs root (the tests run as root). Use `NetworkLab.with(hosts:)`: every namespace, veth and the
/// bridge are removed however the body ends; names carry a random tag so parallel tests never meet.
public struct NetworkLab: Sendable {
  /// One host: its namespace and its address on the lab's network.
  public struct Host: Sendable, Hashable {
    /// The network namespace's name.
    public var namespace: String
    /// The host's IPv4 address.
    public var address: String
  }

  /// Whether a lab can be made here: root, and `ip` (package iproute2). Tests that need one are enabled
  /// only then, and say so when they are skipped.
  public static var isAvailable: Bool {
    geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
  }

  /// The hosts, in the order asked for.
  public let hosts: [Host]
  /// The test's own address on the lab's network (the bridge's).
  public let gateway: String
  private let bridge: String

  /// Creates `count` hosts, runs `body`, and removes them however it ends.
  public static func with<R>(hosts count: Int, _ body: (NetworkLab) async throws -> R) async throws -> R {
    guard geteuid() == 0 else {
      throw LabError(
        command: "ip netns add", output: "network namespaces need root: run the tests as root (as CI does)")
    }
    let tag = String(UInt32.random(in: 0..<0xFFFFF), radix: 16)
    let subnet = "10.\(Int.random(in: 100...250)).\(Int.random(in: 1...250))"
    let lab = NetworkLab(
      hosts: (1...count).map { Host(namespace: "sh\(tag)n\($0)", address: "\(subnet).\($0)") },
      gateway: "\(subnet).254", bridge: "sh\(tag)b")
    do {
      try await lab.create(subnet: subnet, tag: tag)
      let result = try await body(lab)
      await lab.remove()
      return result
    } catch {
      await lab.remove()
      throw error
    }
  }

  private func create(subnet: String, tag: String) async throws {
    try await Self.ip(["link", "add", bridge, "type", "bridge"])
    try await Self.ip(["addr", "add", "\(gateway)/24", "dev", bridge])
    try await Self.ip(["link", "set", bridge, "up"])
    for (index, host) in hosts.enumerated() {
      let veth = "sh\(tag)v\(index + 1)"
      try await Self.ip(["netns", "add", host.namespace])
      try await Self.ip(["link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", host.namespace])
      try await Self.ip(["link", "set", veth, "master", bridge, "up"])
      try await Self.ip(["-n", host.namespace, "addr", "add", "\(host.address)/24", "dev", "eth0"])
      try await Self.ip(["-n", host.namespace, "link", "set", "eth0", "up"])
      try await Self.ip(["-n", host.namespace, "link", "set", "lo", "up"])
    }
  }

  private func remove() async {
    for host in hosts { _ = try? await Self.ip(["netns", "delete", host.namespace]) }
    _ = try? await Self.ip(["link", "delete", bridge])
  }

  /// The command line that runs `executable` with `arguments` inside `host`'s namespace (`ip netns exec`
  /// sets the namespace and then runs the program itself, so its pid is the program's).
  public func command(in host: Host, _ executable: String, _ arguments: [String]) -> (String, [String]) {
    ("/usr/sbin/ip", ["netns", "exec", host.namespace, executable] + arguments)
  }

  @discardableResult
  private static func ip(_ arguments: [String]) async throws -> String {
    let result = try await ProcessRunner().run("/usr/sbin/ip", arguments)
    guard result.status == 0 else {
      throw LabError(command: "ip " + arguments.joined(separator: " "), output: result.combined)
    }
    return result.standardOutput
  }

  /// An `ip` command failed.
  public struct LabError: Error, CustomStringConvertible {
    /// The command.
    public var command: String
    /// What it printed.
    public var output: String
    /// The message shown when a test fails with it.
    public var description: String { "\(command) failed: \(output)" }
  }
}

extension NetworkLab {
  /// Drops every packet `host` sends to `address` (a blackhole route in its namespace): it can no longer
  /// reach that host, while the test still reaches it.
  public func blackhole(_ address: String, in host: Host) async throws {
    let result = try await ProcessRunner().run(
      "/usr/sbin/ip", ["-n", host.namespace, "route", "add", "blackhole", "\(address)/32"])
    guard result.status == 0 else { throw LabError(command: "ip route add blackhole", output: result.combined) }
  }
}
