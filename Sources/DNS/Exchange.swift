import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One query's blocking descriptor work, run on a thread of its own so that it never holds a thread of Swift's
/// cooperative pool; `cancel()`, from any thread, wakes it at once.
///
/// Every descriptor is non-blocking and close-on-exec (a program started at the same moment never inherits
/// one), and every wait is a `poll` on the descriptor and a wake-up descriptor pair, bounded by the deadline.
final class Exchange: Sendable {
  private let wakeRead: Int32
  private let wakeWrite: Int32
  /// Whether the wake-up pair is closed; `cancel` writes to it only while it is open.
  private let closed = Locked(false)

  /// Creates the wake-up pair.
  init() throws(ResolverError) {
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, streamType | closeOnExec, 0, &ends) == 0 else {
      throw .socket(operation: "create a socket pair", detail: errnoText())
    }
    wakeRead = ends[0]
    wakeWrite = ends[1]
  }

  /// Wakes the exchange, which then ends with `.cancelled`.
  func cancel() {
    closed.withLock { closed in
      guard !closed else { return }
      var byte: UInt8 = 1
      _ = send(wakeWrite, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }
  }

  /// Closes the wake-up pair; `cancel` does nothing afterwards.
  func finish() {
    closed.withLock { closed in
      guard !closed else { return }
      closed = true
      close(wakeRead)
      close(wakeWrite)
    }
  }

  /// Sends `query` to `server` over UDP and waits until `deadline` for the reply with the same id, source
  /// and question; a reply with TC set is asked again over TCP within the same deadline.
  func run(
    query: [UInt8], id: UInt16, question: Question, server: ServerAddress, deadline: ContinuousClock.Instant,
    timeout: Duration
  ) -> Result<Message, ResolverError> {
    var malformed: MessageError?
    func expired() -> ResolverError {
      malformed.map { .malformedReply($0) } ?? .timeout(server: server.description, after: timeout)
    }
    func matches(_ reply: Message) -> Bool {
      guard reply.id == id, reply.flags.isResponse else { return false }
      // A server may leave the question out of an error response (RFC 1035 leaves it open).
      if reply.questions.isEmpty { return reply.responseCode != .noError }
      return reply.questions.count == 1 && reply.questions[0].matches(question)
    }

    let descriptor = socket(family(server), datagramType | closeOnExec | nonBlocking, 0)
    guard descriptor >= 0 else { return .failure(.socket(operation: "open a UDP socket", detail: errnoText())) }
    defer { close(descriptor) }
    // Port 0: the system picks a random source port.
    let bound = withAddress(any(server), port: 0) { bind(descriptor, $0, $1) }
    guard bound == 0 else { return .failure(.socket(operation: "bind a UDP socket", detail: errnoText())) }
    // Connected, the descriptor receives from the server only and reports ICMP port unreachable.
    guard withAddress(server.ip, port: server.port, { connect(descriptor, $0, $1) }) == 0 else {
      return .failure(unreachable(server, errno))
    }
    guard sendAll(descriptor, query) else { return .failure(unreachable(server, errno)) }

    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      switch wait(descriptor, events: Int16(POLLIN), until: deadline) {
      case .cancelled: return .failure(.cancelled)
      case .timedOut: return .failure(expired())
      case .ready: break
      }
      var source = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let count = withUnsafeMutablePointer(to: &source) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length)
        }
      }
      if count < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
        return .failure(unreachable(server, errno))
      }
      guard Self.address(source) == server else { continue }
      let reply: Message
      do {
        reply = try Message(decoding: Array(buffer[0..<count]))
      } catch {
        malformed = error
        continue
      }
      guard matches(reply) else { continue }
      guard reply.flags.truncated else { return .success(reply) }
      return overTCP(
        query: query, server: server, deadline: deadline, timeout: timeout, matches: matches, malformed: &malformed
      ).map(\.message)
    }
  }

  /// Sends `message` (with `id`) to `server` over TCP only, as an UPDATE is sent, and waits until `deadline`
  /// for the response with the same id; returns it with its bytes as they came (a signed reply's MAC covers them).
  func runOverTCP(
    message: [UInt8], id: UInt16, server: ServerAddress, deadline: ContinuousClock.Instant, timeout: Duration
  ) -> Result<(message: Message, bytes: [UInt8]), ResolverError> {
    var malformed: MessageError?
    return overTCP(
      query: message, server: server, deadline: deadline, timeout: timeout,
      matches: { $0.id == id && $0.flags.isResponse }, malformed: &malformed)
  }

  /// Asks for a zone transfer (`message`, an AXFR query with `id`) over TCP and reads the messages that
  /// carry the zone until its SOA comes a second time (RFC 5936 §2.2); returns every record in order, the
  /// two SOAs included, and the bytes received.
  func runTransfer(
    message: [UInt8], id: UInt16, server: ServerAddress, deadline: ContinuousClock.Instant, timeout: Duration
  ) -> Result<(records: [Record], bytes: Int, code: ResponseCode), ResolverError> {
    var malformed: MessageError?
    var records: [Record] = []
    var soas = 0
    var bytes = 0
    var code = ResponseCode.noError
    let result = overTCP(
      query: message, server: server, deadline: deadline, timeout: timeout,
      matches: { reply in
        guard reply.id == id, reply.flags.isResponse else { return false }
        guard reply.responseCode == .noError else {
          code = reply.responseCode
          return true
        }
        for record in reply.answers {
          records.append(record)
          if record.type == .soa { soas += 1 }
        }
        return soas >= 2
      }, malformed: &malformed, counted: &bytes)
    return result.map { _ in (records, bytes, code) }
  }

  /// Asks again over TCP (each message after a two-byte length) and reads replies until one matches.
  private func overTCP(
    query: [UInt8], server: ServerAddress, deadline: ContinuousClock.Instant, timeout: Duration,
    matches: (Message) -> Bool, malformed: inout MessageError?
  ) -> Result<(message: Message, bytes: [UInt8]), ResolverError> {
    var counted = 0
    return overTCP(
      query: query, server: server, deadline: deadline, timeout: timeout, matches: matches, malformed: &malformed,
      counted: &counted)
  }

  /// `overTCP`, adding to `counted` the bytes of every reply read.
  private func overTCP(
    query: [UInt8], server: ServerAddress, deadline: ContinuousClock.Instant, timeout: Duration,
    matches: (Message) -> Bool, malformed: inout MessageError?, counted: inout Int
  ) -> Result<(message: Message, bytes: [UInt8]), ResolverError> {
    let timedOut = ResolverError.timeout(server: server.description, after: timeout)
    let descriptor = socket(family(server), streamType | closeOnExec | nonBlocking, 0)
    guard descriptor >= 0 else { return .failure(.socket(operation: "open a TCP socket", detail: errnoText())) }
    defer { close(descriptor) }
    if withAddress(server.ip, port: server.port, { connect(descriptor, $0, $1) }) != 0 {
      guard errno == EINPROGRESS else { return .failure(unreachable(server, errno)) }
      switch wait(descriptor, events: Int16(POLLOUT), until: deadline) {
      case .cancelled: return .failure(.cancelled)
      case .timedOut: return .failure(malformed.map { .malformedReply($0) } ?? timedOut)
      case .ready: break
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
      guard error == 0 else { return .failure(unreachable(server, error)) }
    }
    let framed = [UInt8(query.count >> 8), UInt8(query.count & 0xFF)] + query
    var sent = 0
    while sent < framed.count {
      let count = framed[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count > 0 {
        sent += count
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        switch wait(descriptor, events: Int16(POLLOUT), until: deadline) {
        case .cancelled: return .failure(.cancelled)
        case .timedOut: return .failure(malformed.map { .malformedReply($0) } ?? timedOut)
        case .ready: break
        }
      } else {
        return .failure(unreachable(server, errno))
      }
    }
    while true {
      let prefix: [UInt8]
      switch read(descriptor, count: 2, until: deadline) {
      case .success(let bytes): prefix = bytes
      case .failure(let error): return .failure(closedOr(error, server))
      }
      let length = Int(prefix[0]) << 8 | Int(prefix[1])
      let body: [UInt8]
      switch read(descriptor, count: length, until: deadline) {
      case .success(let bytes): body = bytes
      case .failure(let error): return .failure(closedOr(error, server))
      }
      counted += 2 + body.count
      do {
        let reply = try Message(decoding: body)
        if matches(reply) { return .success((reply, body)) }
      } catch {
        malformed = error
      }
    }

    func closedOr(_ error: ReadFailure, _ server: ServerAddress) -> ResolverError {
      switch error {
      case .cancelled: .cancelled
      case .timedOut: malformed.map { .malformedReply($0) } ?? timedOut
      case .closed:
        malformed.map { .malformedReply($0) }
          ?? .unreachable(server: server.description, detail: "it closed the TCP connection without an answer")
      case .failed(let code): unreachable(server, code)
      }
    }
  }

  private enum ReadFailure: Error {
    case cancelled
    case timedOut
    case closed
    case failed(Int32)
  }

  /// Exactly `count` bytes from a stream descriptor.
  private func read(_ descriptor: Int32, count: Int, until deadline: ContinuousClock.Instant) -> Result<
    [UInt8], ReadFailure
  > {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let received = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if received > 0 {
        filled += received
      } else if received == 0 {
        return .failure(.closed)
      } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
        switch wait(descriptor, events: Int16(POLLIN), until: deadline) {
        case .cancelled: return .failure(.cancelled)
        case .timedOut: return .failure(.timedOut)
        case .ready: break
        }
      } else {
        return .failure(.failed(errno))
      }
    }
    return .success(bytes)
  }

  private enum Readiness {
    case ready
    case timedOut
    case cancelled
  }

  /// Waits until `descriptor` has one of `events` (or an error), the wake-up pair is written, or the deadline.
  private func wait(_ descriptor: Int32, events: Int16, until deadline: ContinuousClock.Instant) -> Readiness {
    while true {
      let remaining = deadline - .now
      guard remaining > .zero else { return .timedOut }
      let (seconds, attoseconds) = remaining.components
      let milliseconds = min(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, 60_000)
      var descriptors = [
        pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let result = poll(&descriptors, 2, Int32(milliseconds))
      if result < 0 && errno != EINTR { return .ready }
      if descriptors[1].revents != 0 { return .cancelled }
      if descriptors[0].revents != 0 { return .ready }
    }
  }

  /// Sends a datagram; false with errno set when the system refuses.
  private func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    while true {
      let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count >= 0 { return true }
      if errno != EINTR { return false }
    }
  }

  private func unreachable(_ server: ServerAddress, _ code: Int32) -> ResolverError {
    let detail =
      code == ECONNREFUSED
      ? "connection refused (nothing listens on port \(server.port))" : String(cString: strerror(code))
    return .unreachable(server: server.description, detail: detail)
  }

  private func family(_ server: ServerAddress) -> Int32 {
    if case .v4 = server.ip { AF_INET } else { AF_INET6 }
  }

  private func any(_ server: ServerAddress) -> IPAddress {
    if case .v4 = server.ip { .v4(.unspecified) } else { .v6(.unspecified) }
  }

  /// Calls `body` with a descriptor address of `ip` and `port`.
  private func withAddress<R>(_ ip: IPAddress, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    switch ip {
    case .v4(let v4):
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: v4.bytes) }
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    case .v6(let v6):
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: v6.bytes) }
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
      }
    }
  }

  /// The address and port of a received datagram's source.
  private static func address(_ storage: sockaddr_storage) -> ServerAddress? {
    var storage = storage
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafeBytes(of: &storage) { raw in
        let address = raw.load(as: sockaddr_in.self)
        let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
        return ServerAddress(ip: .v4(IPv4Address(bytes: bytes)!), port: UInt16(bigEndian: address.sin_port))
      }
    case AF_INET6:
      return withUnsafeBytes(of: &storage) { raw in
        let address = raw.load(as: sockaddr_in6.self)
        let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
        return ServerAddress(ip: .v6(IPv6Address(bytes: bytes)!), port: UInt16(bigEndian: address.sin6_port))
      }
    default:
      return nil
    }
  }
}

#if canImport(Glibc)
  private let datagramType = Int32(SOCK_DGRAM.rawValue)
  private let streamType = Int32(SOCK_STREAM.rawValue)
  private let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
  private let nonBlocking = Int32(SOCK_NONBLOCK.rawValue)
#else
  private let datagramType = SOCK_DGRAM
  private let streamType = SOCK_STREAM
  private let closeOnExec = SOCK_CLOEXEC
  private let nonBlocking = SOCK_NONBLOCK
#endif

/// The text of the current errno.
private func errnoText() -> String { String(cString: strerror(errno)) }
