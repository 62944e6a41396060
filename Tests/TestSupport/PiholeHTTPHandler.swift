import Foundation
import NIOCore
import NIOHTTP1

/// Decodes HTTP/1.1 requests, hands them to the double and writes its replies.
final class PiholeHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = ByteBuffer

  private let double: () -> PiholeDouble?
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []

  init(double: @escaping () -> PiholeDouble?) { self.double = double }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = []
    case .body(var buffer):
      body += buffer.readBytes(length: buffer.readableBytes) ?? []
    case .end:
      guard let head, let double = double() else { return }
      self.head = nil
      // A crashed daemon answers nothing: every connection is dropped.
      guard !double.crashed else {
        context.close(promise: nil)
        return
      }
      let (path, query) = Self.split(head.uri)
      let request = PiholeRequest(
        method: head.method.rawValue, path: path, query: query, headers: head.headers, body: body)
      let close = head.headers.first(name: "Connection")?.lowercased() == "close"
      guard request.method == "GET" && path.hasPrefix("/api/search/") else {
        let reply = double.respond(to: request)
        if let delay = reply.chunks.map({ _ in double.configuration.gravityLineDelay }), delay > .zero {
          writeSlowly(reply, delay: delay, close: close, context: context)
        } else {
          write(reply, close: close, context: context)
        }
        return
      }
      // A search takes a while; two at once crash FTL v6.4.1 (a prepared statement shared across threads).
      double.beginSearch()
      let reply = double.respond(to: request)
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      let latency = double.configuration.searchLatency.components
      let nanoseconds = latency.seconds * 1_000_000_000 + latency.attoseconds / 1_000_000_000
      context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
        double.endSearch()
        if double.crashed {
          bound.value.close(promise: nil)
        } else {
          self.write(reply, close: close, context: bound.value)
        }
      }
    }
  }

  /// Writes a chunked reply one chunk at a time, `delay` apart (a gravity log as it is produced), so a
  /// client can be interrupted while it streams.
  private func writeSlowly(_ reply: PiholeReply, delay: Duration, close: Bool, context: ChannelHandlerContext) {
    var head = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\n"
    for (name, value) in reply.headers + [("Transfer-Encoding", "chunked")] { head += "\(name): \(value)\r\n" }
    if close { head += "Connection: close\r\n" }
    let parts =
      [Array((head + "\r\n").utf8)]
      + (reply.chunks ?? []).filter { !$0.isEmpty }.map {
        Array(String($0.count, radix: 16).utf8) + [13, 10] + $0 + [13, 10]
      } + [Array("0\r\n\r\n".utf8) + reply.trailing]
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let step = delay.components
    let nanoseconds = step.seconds * 1_000_000_000 + step.attoseconds / 1_000_000_000
    func send(_ index: Int) {
      let context = bound.value
      guard index < parts.count, context.channel.isActive else { return }
      let buffer = context.channel.allocator.buffer(bytes: parts[index])
      let last = index == parts.count - 1
      context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
        if last && close { bound.value.channel.close(promise: nil) }
      }
      if !last { context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { send(index + 1) } }
    }
    send(0)
  }

  /// Bytes that are not HTTP (a TLS handshake sent to this plain-HTTP port): answer 400 and close, as
  /// FTL's web server does.
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    let buffer = context.channel.allocator.buffer(
      string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
  }

  private func write(_ reply: PiholeReply, close: Bool, context: ChannelHandlerContext) {
    var text = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\n"
    var fields = reply.headers
    if reply.chunks != nil {
      fields.append(("Transfer-Encoding", "chunked"))
    } else if reply.status != 204 {
      fields.append(("Content-Length", "\(reply.body.count)"))
    }
    if close { fields.append(("Connection", "close")) }
    for (name, value) in fields { text += "\(name): \(value)\r\n" }
    var bytes = Array((text + "\r\n").utf8)
    if let chunks = reply.chunks {
      for chunk in chunks where !chunk.isEmpty {
        bytes += Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
      }
      bytes += Array("0\r\n\r\n".utf8)
    } else {
      bytes += reply.body
    }
    bytes += reply.trailing
    let buffer = context.channel.allocator.buffer(bytes: bytes)
    guard close else {
      context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
      return
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
  }

  static func split(_ uri: String) -> (String, [String: String]) {
    guard let mark = uri.firstIndex(of: "?") else { return (uri, [:]) }
    var query: [String: String] = [:]
    for pair in uri[uri.index(after: mark)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (text: Substring) in
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
      }
      let name = decode(parts[0])
      if query[name] == nil { query[name] = parts.count > 1 ? decode(parts[1]) : "" }
    }
    return (String(uri[..<mark]), query)
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 429: "Too Many Requests"
    default: "Internal Server Error"
    }
  }
}
