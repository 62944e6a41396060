import DNS
import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A scriptable DNS server on 127.0.0.1, UDP and TCP on the same port, for testing clients.
///
/// What it sends for each query is up to a closure: an answer, an answer with TC set (and the full one on
/// TCP), a reply with the wrong id first, garbage, a reply from another port, or nothing at all (a black
/// hole). It records every query and also delivers it to `received` as it arrives. Use
/// `FakeDNSServer.with(...)`, which always stops it.
public final class FakeDNSServer: Sendable {
  /// How a query reached the server.
  public enum Transport: Sendable, Hashable {
    /// A UDP datagram.
    case udp
    /// A message on a TCP connection, after its two-byte length.
    case tcp
  }

  /// A query the server received.
  public struct Request: Sendable {
    /// How it arrived.
    public var transport: Transport
    /// Its bytes.
    public var bytes: [UInt8]
    /// The decoded message; nil when the bytes are not a DNS message.
    public var message: Message?

    /// Creates a request, for building replies to a message the server did not receive.
    public init(transport: Transport, bytes: [UInt8], message: Message?) {
      self.transport = transport
      self.bytes = bytes
      self.message = message
    }
  }

  /// One thing the server does in reply to a query.
  public enum Reply: Sendable, Hashable {
    /// Send these bytes (after their two-byte length on TCP).
    case bytes([UInt8])
    /// Send these bytes from another UDP port of 127.0.0.1 (a spoof the client must ignore); skipped on TCP.
    case fromOtherPort([UInt8])
    /// Close the TCP connection; skipped on UDP.
    case closeConnection
  }

  /// What the server does for each query: its replies in order; none is a black hole.
  public typealias Behaviour = @Sendable (Request) -> [Reply]

  /// The port it serves on, both UDP and TCP, of 127.0.0.1.
  public let port: UInt16
  /// The queries as they arrive.
  public let received: AsyncStream<Request>

  private let behaviour: Behaviour
  private let udp: Int32
  private let tcp: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let receivedContinuation: AsyncStream<Request>.Continuation
  private let recorded = Locked<[Request]>([])
  private let connections = Locked<Set<Int32>>([])
  private let finished = Locked<Finished>(Finished())

  private struct Finished {
    var done = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  /// Every query received so far, in order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Starts a server on a free port of 127.0.0.1 with `behaviour`, runs `body` with it and stops it however
  /// `body` ends.
  public static func with<R>(
    _ behaviour: @escaping Behaviour, _ body: (FakeDNSServer) async throws -> R
  ) async throws -> R {
    let server = try FakeDNSServer(behaviour)
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  private init(_ behaviour: @escaping Behaviour) throws {
    self.behaviour = behaviour
    (received, receivedContinuation) = AsyncStream.makeStream(of: Request.self)
    var sockets: (udp: Int32, tcp: Int32, port: UInt16)?
    for _ in 0..<100 {
      let port = UInt16.random(in: 20_000..<32_000)
      guard let udp = Self.bound(datagram, port: port) else { continue }
      guard let tcp = Self.bound(stream, port: port) else {
        close(udp)
        continue
      }
      guard listen(tcp, 16) == 0 else {
        close(udp)
        close(tcp)
        continue
      }
      sockets = (udp, tcp, port)
      break
    }
    guard let sockets else {
      throw FreePort.PortError(detail: "no port between 20000 and 32000 free for both UDP and TCP after 100 tries")
    }
    (udp, tcp, port) = sockets
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, stream | closeOnExec, 0, &ends) == 0 else {
      close(udp)
      close(tcp)
      throw FreePort.PortError(detail: "socketpair: \(String(cString: strerror(errno)))")
    }
    (wakeRead, wakeWrite) = (ends[0], ends[1])
    let thread = Thread { [self] in serve() }
    thread.name = "fake-dns-\(port)"
    thread.start()
  }

  /// Replies that answer `request` with `answers` (and `authority`), the response code `code`, TC set when
  /// `truncated`, and `id` instead of the query's when given.
  public static func response(
    to request: Request, answers: [Record] = [], authority: [Record] = [], code: ResponseCode = .noError,
    truncated: Bool = false, id: UInt16? = nil
  ) -> [UInt8] {
    let query = request.message ?? Message(id: 0)
    let message = Message(
      id: id ?? query.id,
      flags: Message.Flags(
        isResponse: true, truncated: truncated, recursionDesired: query.flags.recursionDesired,
        recursionAvailable: true, responseCode: code),
      questions: query.questions, answers: answers, authority: authority)
    return try! message.encoded()
  }

  /// Stops serving, ends `received`, and waits until the serving thread has ended.
  public func stop() async {
    var byte: UInt8 = 1
    _ = Glibc.send(wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL))
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = finished.withLock { state in
        if !state.done { state.waiters.append(continuation) }
        return state.done
      }
      if done { continuation.resume() }
    }
    connections.withLock { open in
      for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
    for descriptor in [udp, tcp, wakeRead, wakeWrite] { close(descriptor) }
    receivedContinuation.finish()
  }

  /// The serving loop, on a thread of its own: UDP queries answered in turn, each TCP connection on a
  /// thread of its own.
  private func serve() {
    var buffer = [UInt8](repeating: 0, count: 65536)
    loop: while true {
      var descriptors = [udp, tcp, wakeRead].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&descriptors, 3, -1) >= 0 else {
        if errno == EINTR { continue }
        break
      }
      if descriptors[2].revents != 0 { break loop }
      if descriptors[0].revents != 0 {
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &source) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(udp, &buffer, buffer.count, 0, $0, &length) }
        }
        if count >= 0 {
          for reply in handle(Array(buffer[0..<count]), .udp) {
            switch reply {
            case .bytes(let bytes): Self.sendDatagram(bytes, from: udp, to: source)
            case .fromOtherPort(let bytes):
              if let other = Self.bound(datagram, port: 0) {
                Self.sendDatagram(bytes, from: other, to: source)
                close(other)
              }
            case .closeConnection: break
            }
          }
        }
      }
      if descriptors[1].revents != 0 {
        // accept4 is not in Swift's Glibc module: close-on-exec follows at once.
        let connection = accept(tcp, nil, nil)
        if connection >= 0 {
          _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
          connections.withLock { _ = $0.insert(connection) }
          let thread = Thread { [self] in serveConnection(connection) }
          thread.start()
        }
      }
    }
    let waiters = finished.withLock { state in
      state.done = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Answers the queries on one TCP connection until the client closes it or 10 s pass without one.
  private func serveConnection(_ connection: Int32) {
    defer {
      connections.withLock { open in
        open.remove(connection)
        close(connection)
      }
    }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    while let prefix = Self.read(connection, count: 2),
      let bytes = Self.read(connection, count: Int(prefix[0]) << 8 | Int(prefix[1]))
    {
      for reply in handle(bytes, .tcp) {
        switch reply {
        case .bytes(let bytes):
          let framed = [UInt8(bytes.count >> 8 & 0xFF), UInt8(bytes.count & 0xFF)] + bytes
          var sent = 0
          while sent < framed.count {
            let count = framed[sent...].withUnsafeBytes {
              send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
          }
        case .fromOtherPort: break
        case .closeConnection: return
        }
      }
    }
  }

  /// Records a query and asks the behaviour what to send.
  private func handle(_ bytes: [UInt8], _ transport: Transport) -> [Reply] {
    let request = Request(transport: transport, bytes: bytes, message: try? Message(decoding: bytes))
    recorded.withLock { $0.append(request) }
    receivedContinuation.yield(request)
    return behaviour(request)
  }

  private static func read(_ descriptor: Int32, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let received = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if received > 0 {
        filled += received
      } else if received < 0 && errno == EINTR {
        continue
      } else {
        return nil
      }
    }
    return bytes
  }

  private static func sendDatagram(_ bytes: [UInt8], from descriptor: Int32, to address: sockaddr_in) {
    var address = address
    _ = bytes.withUnsafeBytes { raw in
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(
            descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
  }

  /// A socket of `type` bound to 127.0.0.1:`port` (0: any), or nil.
  private static func bound(_ type: Int32, port: UInt16) -> Int32? {
    let descriptor = socket(AF_INET, type | closeOnExec, 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      return nil
    }
    return descriptor
  }
}

#if canImport(Glibc)
  private let datagram = Int32(SOCK_DGRAM.rawValue)
  private let stream = Int32(SOCK_STREAM.rawValue)
  private let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
#else
  private let datagram = SOCK_DGRAM
  private let stream = SOCK_STREAM
  private let closeOnExec = SOCK_CLOEXEC
#endif
