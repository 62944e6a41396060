import Foundation

extension Resolver {
  /// What the server answered to each message of an update, in order.
  public struct UpdateResult: Sendable, Hashable {
    /// How many messages were sent (each its own transaction and serial on the server).
    public var messages: Int
    /// How many changes they held.
    public var changes: Int
    /// How many bytes went to the server.
    public var bytesSent: Int
  }

  /// Sends `update` to the server over TCP as dynamic updates, signed with `key` when given, and returns
  /// once the server has accepted every message.
  ///
  /// Throws `.updateRejected` naming the server's response code at the first message it refuses (the
  /// messages before it stay applied: each is a transaction of its own), or the transport's errors.
  public func send(_ update: ZoneUpdate, key: TransactionKey?, timeout: Duration, now: Date = Date())
    async throws(ResolverError) -> UpdateResult
  {
    var result = UpdateResult(messages: 0, changes: 0, bytesSent: 0)
    for message in update.messages(firstID: UInt16.random(in: .min ... .max)) {
      var bytes: [UInt8]
      do {
        bytes = try message.encoded()
        if let key { bytes = try key.sign(bytes, at: now).bytes }
      } catch {
        throw .malformedReply(error)
      }
      let reply = try await exchangeOverTCP(bytes, id: message.id, timeout: timeout)
      guard reply.message.responseCode == .noError else {
        throw .updateRejected(
          zone: update.zone, server: server.description, code: reply.message.responseCode,
          signature: Self.signatureError(in: reply.message))
      }
      result.messages += 1
      result.changes += message.authority.count
      result.bytesSent += bytes.count
    }
    return result
  }

  /// The serial of `zone`'s SOA as the server answers it with authority, or nil when it answers the
  /// zone's SOA with no record (it does not serve the zone, or refuses the question).
  public func serial(of zone: String, timeout: Duration) async throws(ResolverError) -> UInt32? {
    let reply = try await query(zone, .soa, timeout: timeout, recursionDesired: false)
    guard reply.responseCode == .noError else { return nil }
    for record in reply.answers {
      if case .soa(let soa) = record.data { return soa.serial }
    }
    return nil
  }

  /// A zone as a transfer (AXFR) read it from the server.
  public struct Transfer: Sendable, Hashable {
    /// The zone's records in the order received, without the SOA that opens and closes it.
    public var records: [Record]
    /// The zone's serial.
    public var serial: UInt32
    /// The bytes received, length prefixes included.
    public var bytes: Int
  }

  /// Reads the whole of `zone` from the server by AXFR over TCP, the request signed with `key` when given.
  ///
  /// Throws `.transferRefused` with the server's response code when it refuses (not allowed by its
  /// allow-transfer, or not serving the zone), or the transport's errors.
  public func transfer(_ zone: String, key: TransactionKey?, timeout: Duration, now: Date = Date())
    async throws(ResolverError) -> Transfer
  {
    let id = UInt16.random(in: .min ... .max)
    var bytes: [UInt8]
    do {
      bytes = try Message(id: id, questions: [Question(name: zone, type: .other(252))]).encoded()
      if let key { bytes = try key.sign(bytes, at: now).bytes }
    } catch {
      if case .invalidName(_, let reason) = error { throw .invalidName(zone, reason: reason) }
      throw .malformedReply(error)
    }
    let server = server
    let message = bytes
    let read = try await onOwnThread(timeout: timeout) { exchange, deadline in
      exchange.runTransfer(message: message, id: id, server: server, deadline: deadline, timeout: timeout)
    }
    guard read.code == .noError, case .soa(let soa)? = read.records.first?.data else {
      throw .transferRefused(zone: zone, server: server.description, code: read.code)
    }
    return Transfer(records: Array(read.records.dropFirst().dropLast()), serial: soa.serial, bytes: read.bytes)
  }

  /// Sends the encoded `message` over TCP and waits for the response with `id`.
  func exchangeOverTCP(_ message: [UInt8], id: UInt16, timeout: Duration) async throws(ResolverError) -> (
    message: Message, bytes: [UInt8]
  ) {
    let server = server
    return try await onOwnThread(timeout: timeout) { exchange, deadline in
      exchange.runOverTCP(message: message, id: id, server: server, deadline: deadline, timeout: timeout)
    }
  }

  /// The error field of a reply's TSIG record (BADSIG 16, BADKEY 17, BADTIME 18), or nil.
  static func signatureError(in reply: Message) -> UInt16? {
    guard let tsig = reply.additional.last, tsig.type.rawValue == 250, case .raw(let data) = tsig.data else {
      return nil
    }
    // Algorithm name, time (6), fudge (2), MAC size and MAC, original id (2), then the error.
    var index = 0
    while index < data.count, data[index] != 0 { index += Int(data[index]) + 1 }
    index += 1 + 8
    guard index + 2 <= data.count else { return nil }
    let macSize = Int(data[index]) << 8 | Int(data[index + 1])
    index += 2 + macSize + 2
    guard index + 2 <= data.count else { return nil }
    return UInt16(data[index]) << 8 | UInt16(data[index + 1])
  }
}
