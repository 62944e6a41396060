import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A client of Knot Resolver's control socket (`RUNDIR/control/PID`, a Unix stream socket that runs Lua).
///
/// kresd greets each connection with `> `; after the line `__binary` every reply is a 4-byte big-endian
/// length and the text.
public struct KnotControl: Sendable {
  /// The socket's path.
  public let path: String
  /// How long connecting, sending and reading may take together.
  public var timeout: Duration

  /// A client of the socket at `path`.
  public init(path: String, timeout: Duration = .seconds(5)) {
    self.path = path
    self.timeout = timeout
  }

  /// Why the socket could not be used.
  public struct Failure: Error, LocalizedError, Sendable, Hashable {
    /// The socket.
    public var path: String
    /// What went wrong.
    public var detail: String
    public var errorDescription: String? { "Knot Resolver's control socket \(path): \(detail)" }
  }

  /// Runs one Lua expression and returns what kresd printed.
  public func send(_ command: String) throws(Failure) -> String {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw fail("cannot open a socket (\(Self.errnoText()))") }
    defer { close(descriptor) }
    var time = timeval(
      tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw fail("the path is too long") }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      throw fail(
        errno == ENOENT || errno == ECONNREFUSED
          ? "nothing listens there (is kresd running, and is this its RUNDIR/control/PID?)"
          : "cannot connect (\(Self.errnoText()))")
    }
    guard try read(descriptor, count: 2) == Array("> ".utf8) else { throw fail("it did not greet with a prompt") }
    let line = Array("__binary\n\(command.replacingOccurrences(of: "\n", with: " "))\n".utf8)
    var sent = 0
    while sent < line.count {
      let count = line[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw fail("cannot send (\(Self.errnoText()))") }
      sent += count
    }
    let header = try read(descriptor, count: 4)
    let length = header.reduce(0) { $0 << 8 | Int($1) }
    guard length <= 1 << 20 else { throw fail("a reply of \(length) bytes is too long") }
    return String(decoding: try read(descriptor, count: length), as: UTF8.self)
  }

  private func read(_ descriptor: Int32, count: Int) throws(Failure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let received = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if received < 0 && errno == EINTR { continue }
      if received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw fail("no reply within \(timeout)") }
      guard received > 0 else { throw fail("it closed the connection") }
      filled += received
    }
    return bytes
  }

  private func fail(_ detail: String) -> Failure { Failure(path: path, detail: detail) }

  private static func errnoText() -> String { String(cString: strerror(errno)) }
}
