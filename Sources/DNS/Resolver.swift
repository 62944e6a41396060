import Foundation

/// Asks one DNS server: UDP first, TCP when the reply is truncated.
///
/// Each query has a random id and a random source port, and only a reply from the server's address with
/// the same id and question counts: anything else (a stray, a spoof, garbage) is ignored until the
/// deadline. The socket work runs on a thread of its own, never on Swift's cooperative pool, and
/// cancelling the task ends it at once.
public struct Resolver: Sendable {
  /// The server asked.
  public let server: ServerAddress

  /// A resolver for `server`.
  public init(server: ServerAddress) {
    self.server = server
  }

  /// A resolver for the server written `IP`, `IP:port` or `[IPv6]:port` (port 53 by default); throws
  /// `.invalidServer` naming the text for anything else.
  public init(server text: String) throws(ResolverError) {
    server = try ServerAddress(parsing: text)
  }

  /// Asks the server for `name`'s `type` records (class IN, recursion desired) and returns its reply,
  /// whatever its response code (NXDOMAIN and REFUSED are replies, not errors).
  ///
  /// Throws `.timeout` when no reply matches within `timeout` (TCP retry included), `.unreachable` when
  /// the server reports nothing listening, `.malformedReply` when only undecodable replies came before the
  /// deadline, `.invalidName` for a name that is not a domain name, `.cancelled` when the task is
  /// cancelled.
  /// `recursionDesired` false asks a server for what it holds itself (a zone's SOA from its primary).
  public func query(_ name: String, _ type: RecordType, timeout: Duration, recursionDesired: Bool = true)
    async throws(ResolverError) -> Message
  {
    let id = UInt16.random(in: .min ... .max)
    let bytes: [UInt8]
    do {
      bytes = try Message.query(id: id, name: name, type: type, recursionDesired: recursionDesired)
    } catch {
      if case .invalidName(_, let reason) = error { throw .invalidName(name, reason: reason) }
      throw .invalidName(name, reason: .empty)
    }
    // The question as it reads back from the wire, to compare with the reply's.
    guard let question = try? Message(decoding: bytes).questions.first else { throw .invalidName(name, reason: .empty) }
    let server = server
    return try await onOwnThread(timeout: timeout) { exchange, deadline in
      exchange.run(query: bytes, id: id, question: question, server: server, deadline: deadline, timeout: timeout)
    }
  }

  /// Runs `work` with a new exchange and the deadline `timeout` from now, on a thread of its own (never
  /// one of Swift's cooperative pool); cancelling the task wakes the exchange at once.
  func onOwnThread<T: Sendable>(
    timeout: Duration,
    _ work: @escaping @Sendable (Exchange, ContinuousClock.Instant) -> Result<T, ResolverError>
  ) async throws(ResolverError) -> T {
    guard !Task.isCancelled else { throw .cancelled }
    let exchange = try Exchange()
    defer { exchange.finish() }
    let deadline = ContinuousClock.now + timeout
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ResolverError>, Never>) in
        let thread = Thread { continuation.resume(returning: work(exchange, deadline)) }
        thread.name = "sanehosts-dns"
        thread.start()
      }
    } onCancel: {
      exchange.cancel()
    }
    return try result.get()
  }
}
