#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ports on 127.0.0.1 that nothing is bound to, for servers started by tests.
public enum FreePort {
  /// A port free for both UDP and TCP on 127.0.0.1 (a DNS server binds both).
  ///
  /// Ports are drawn below the kernel's ephemeral range (32768 and up on Linux), where the source ports of
  /// `dig` and of every other client come from, so a query in flight never holds the server's port. The
  /// port is closed again before returning: `DNSServerProcess` starts again on another when one was taken
  /// in between.
  public static func forDNS() throws -> UInt16 {
    for _ in 0..<100 {
      let port = UInt16.random(in: 20_000..<32_000)
      if (try? probe(type: datagram, port: port)) != nil, (try? probe(type: stream, port: port)) != nil {
        return port
      }
    }
    throw PortError(detail: "no port between 20000 and 32000 free for both UDP and TCP after 100 tries")
  }

  /// A TCP port on 127.0.0.1 that refuses every connection while `body` runs: a socket is bound to it
  /// and never listens, so no other server (a test's beside it) can take the port in between, as one
  /// could between closing a server and connecting to its old port.
  public static func withClosedPort<R>(_ body: (UInt16) async throws -> R) async throws -> R {
    let (descriptor, port) = try bound(type: stream, port: 0)
    defer { close(descriptor) }
    return try await body(port)
  }

  /// Binds a socket of `type` to 127.0.0.1:`port` (0: any), closes it, and returns the port it had.
  private static func probe(type: Int32, port: UInt16) throws -> UInt16 {
    let (descriptor, bound) = try bound(type: type, port: port)
    close(descriptor)
    return bound
  }

  /// A socket of `type` bound to 127.0.0.1:`port` (0: any), and the port it has; the caller closes it.
  private static func bound(type: Int32, port: UInt16) throws -> (Int32, UInt16) {
    let descriptor = socket(AF_INET, type, 0)
    guard descriptor >= 0 else { throw PortError(detail: "socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let detail = String(cString: strerror(errno))
      close(descriptor)
      throw PortError(detail: "bind: \(detail)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else {
      let detail = String(cString: strerror(errno))
      close(descriptor)
      throw PortError(detail: "getsockname: \(detail)")
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }

  #if canImport(Glibc)
    private static let datagram = Int32(SOCK_DGRAM.rawValue)
    private static let stream = Int32(SOCK_STREAM.rawValue)
  #else
    private static let datagram = SOCK_DGRAM
    private static let stream = SOCK_STREAM
  #endif

  /// Why no port could be found.
  public struct PortError: Error, CustomStringConvertible {
    /// What failed.
    public var detail: String
    /// The message shown when a test fails with it.
    public var description: String { "Cannot find a free port on 127.0.0.1: \(detail)" }
  }
}
