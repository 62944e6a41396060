import Apply
import Foundation

/// Queries a DNS server (on 127.0.0.1 unless told) with `dig` (Debian package bind9-dnsutils).
public struct Dig: Sendable {
  /// The server's address.
  public let server: String
  /// The server's port.
  public let port: UInt16
  /// Where `dig` is.
  public let path: String

  /// A resolver for the server on `server`:`port`; fails naming the package when `dig` is missing.
  public init(server: String = "127.0.0.1", port: UInt16) throws {
    self.server = server
    self.port = port
    path = try RequiredTool.path("dig", package: "bind9-dnsutils")
  }

  /// The addresses (or other data) in the answer to `name`'s `type` query, one per record; empty for
  /// NXDOMAIN or no data. Throws when the server does not answer within a second.
  public func query(_ name: String, _ type: String = "A") async throws -> [String] {
    let result = try await ProcessRunner().run(path, arguments(name, type))
    guard result.status == 0 else {
      throw NoAnswer(name: name, type: type, server: "\(server):\(port)", output: result.standardOutput)
    }
    return result.standardOutput.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(";") }
  }

  /// The response code of `name`'s `type` query (`NOERROR`, `NXDOMAIN`, `REFUSED`, …).
  public func status(_ name: String, _ type: String = "A") async throws -> String {
    let arguments = ["@\(server)", "-p", String(port), "+time=1", "+tries=1", "+noall", "+comments", name, type]
    let result = try await ProcessRunner().run(path, arguments)
    guard result.status == 0, let range = result.standardOutput.range(of: "status: ") else {
      throw NoAnswer(name: name, type: type, server: "\(server):\(port)", output: result.standardOutput)
    }
    return String(result.standardOutput[range.upperBound...].prefix { $0 != "," })
  }

  /// Whether the server answers at all (any response code).
  public func answers() async -> Bool {
    (try? await ProcessRunner().run(path, arguments("readiness.invalid", "A")))?.status == 0
  }

  private func arguments(_ name: String, _ type: String) -> [String] {
    ["@\(server)", "-p", String(port), "+short", "+time=1", "+tries=1", name, type]
  }

  /// The server did not answer a query.
  public struct NoAnswer: Error, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// The record type asked for.
    public var type: String
    /// The server asked, `IP:port`.
    public var server: String
    /// What dig printed.
    public var output: String
    /// The message shown when a test fails with it.
    public var description: String { "No answer from \(server) for \(name) \(type): \(output)" }
  }
}
