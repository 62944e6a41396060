import Foundation
import Locking
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A real HTTP/1.1 server on 127.0.0.1 with scripted, misbehaving responses for download tests.
///
/// Each path has a script: the n-th request to a path gets the n-th response of its script, and the
/// last response repeats. Responses are written as raw bytes, so a response can lie about its length,
/// stall, trickle, or drop the connection in the middle of the body.
public final class FixtureServer: Sendable {
  /// One scripted response.
  public enum Response: Sendable {
    /// A resource that honours conditional requests (ETag, Last-Modified) and, if asked, Range.
    case resource(Resource)
    /// A bare status with a short text body.
    case status(Int, headers: [(String, String)] = [])
    /// A redirect with a `Location` header.
    case redirect(to: String, status: Int = 302)
    /// Sends the headers (with the full length) and `bytes` of the body, then nothing: the transfer stalls.
    case stall(body: [UInt8], after: Int)
    /// Sends the headers (with the full length) and `bytes` of the body, then closes the connection.
    case drop(body: [UInt8], after: Int)
    /// Sends the body in pieces of `chunk` bytes, one piece every `interval`.
    case trickle(body: [UInt8], chunk: Int, interval: TimeAmount)
    /// Writes these raw bytes and closes the connection.
    case raw([UInt8])
    /// Sends a chunked body that never ends: `line` over and over, as fast as the client reads.
    case endless(line: String)
  }

  /// A downloadable document and how it is served.
  public struct Resource: Sendable {
    /// How the body's length is announced.
    public enum Framing: Sendable { case contentLength, chunked, closeDelimited }

    public var body: [UInt8]
    public var etag: String?
    public var lastModified: String?
    public var framing: Framing
    public var acceptsRanges: Bool
    public var contentType: String

    /// Creates a resource.
    public init(
      _ body: [UInt8], etag: String? = nil, lastModified: String? = nil, framing: Framing = .contentLength,
      acceptsRanges: Bool = false, contentType: String = "text/plain"
    ) {
      self.body = body
      self.etag = etag
      self.lastModified = lastModified
      self.framing = framing
      self.acceptsRanges = acceptsRanges
      self.contentType = contentType
    }

    /// Creates a resource from a string body.
    public init(
      _ text: String, etag: String? = nil, lastModified: String? = nil, framing: Framing = .contentLength,
      acceptsRanges: Bool = false
    ) {
      self.init(
        Array(text.utf8), etag: etag, lastModified: lastModified, framing: framing, acceptsRanges: acceptsRanges)
    }
  }

  /// A request as the server saw it.
  public struct RecordedRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [(String, String)]

    /// The first value of a header, case-insensitive.
    public func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
  }

  private struct Routes {
    var scripts: [String: [Response]] = [:]
    var served: [String: Int] = [:]
    var requests: [RecordedRequest] = []
  }

  private let routes = Locked(Routes())
  private let channel: any Channel

  /// The port the server listens on.
  public let port: Int

  /// `http` or `https`.
  public let scheme: String

  /// The base URL, `http://127.0.0.1:PORT` (or https).
  public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }

  /// A URL on this server.
  public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

  private init(channel: any Channel, scheme: String) {
    self.channel = channel
    self.scheme = scheme
    self.port = channel.localAddress?.port ?? 0
  }

  /// Starts a server on 127.0.0.1 and a free port; with a certificate it speaks HTTPS.
  public static func start(certificate: TestCertificate? = nil) async throws -> FixtureServer {
    let context = try certificate.map { certificate in
      try NIOSSLContext(
        configuration: .makeServerConfiguration(
          certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
          privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyPath, format: .pem))))
    }
    let box = Locked<FixtureServer?>(nil)
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
          try channel.pipeline.syncOperations.addHandler(Handler(server: { box.withLock { $0 } }))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    let server = FixtureServer(channel: channel, scheme: certificate == nil ? "http" : "https")
    box.withLock { $0 = server }
    return server
  }

  /// Runs `body` with a started server and always shuts it down.
  public static func with<R>(
    certificate: TestCertificate? = nil, _ body: (FixtureServer) async throws -> R
  ) async throws -> R {
    let server = try await start(certificate: certificate)
    do {
      let result = try await body(server)
      await server.shutdown()
      return result
    } catch {
      await server.shutdown()
      throw error
    }
  }

  /// Stops listening and closes the server channel.
  public func shutdown() async {
    try? await channel.close()
  }

  /// Sets the script of responses for a path.
  public func route(_ path: String, _ responses: Response...) {
    routes.withLock {
      $0.scripts[path] = responses
      $0.served[path] = 0
    }
  }

  /// Every request received so far, in order.
  public var requests: [RecordedRequest] { routes.withLock { $0.requests } }

  /// The requests received for one path.
  public func requests(to path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

  fileprivate func next(for request: RecordedRequest) -> Response {
    routes.withLock { routes in
      routes.requests.append(request)
      guard let script = routes.scripts[request.path], !script.isEmpty else {
        return .status(404)
      }
      let index = routes.served[request.path, default: 0]
      routes.served[request.path] = index + 1
      return script[min(index, script.count - 1)]
    }
  }
}

private final class Handler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = ByteBuffer

  private let server: () -> FixtureServer?
  private var head: HTTPRequestHead?

  init(server: @escaping () -> FixtureServer?) { self.server = server }

  /// A request that is not HTTP (a TLS handshake sent to plain HTTP, say) gets a 400 and the connection
  /// closes, as nginx or Apache would answer.
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError else {
      context.close(promise: nil)
      return
    }
    let text = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    write(Array(text.utf8), context: context, thenClose: true)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): self.head = head
    case .body: break
    case .end:
      guard let head, let server = server() else { return }
      let recorded = FixtureServer.RecordedRequest(
        method: head.method.rawValue, path: head.uri, headers: head.headers.map { ($0.name, $0.value) })
      respond(server.next(for: recorded), to: recorded, context: context)
    }
  }

  private func write(_ bytes: [UInt8], context: ChannelHandlerContext, thenClose: Bool = false) {
    let buffer = context.channel.allocator.buffer(bytes: bytes)
    guard thenClose else {
      context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
      return
    }
    // Close only once every byte is on the wire, so "drop after N bytes" really delivers N bytes.
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
  }

  private func header(_ status: Int, _ reason: String, _ fields: [(String, String)]) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(reason)\r\n"
    for (name, value) in fields { text += "\(name): \(value)\r\n" }
    return Array((text + "\r\n").utf8)
  }

  private func respond(
    _ response: FixtureServer.Response, to request: FixtureServer.RecordedRequest, context: ChannelHandlerContext
  ) {
    let isHead = request.method == "HEAD"
    switch response {
    case .status(let code, let extra):
      let body = Array("status \(code)\n".utf8)
      write(header(code, "Scripted", [("Content-Length", "\(body.count)")] + extra) + body, context: context)
    case .redirect(let location, let code):
      write(header(code, "Redirect", [("Location", location), ("Content-Length", "0")]), context: context)
    case .stall(let body, let after):
      write(header(200, "OK", [("Content-Length", "\(body.count)")]) + body.prefix(after), context: context)
    case .drop(let body, let after):
      write(
        header(200, "OK", [("Content-Length", "\(body.count)")]) + body.prefix(after), context: context, thenClose: true
      )
    case .raw(let bytes):
      write(bytes, context: context, thenClose: true)
    case .trickle(let body, let chunk, let interval):
      write(header(200, "OK", [("Content-Length", "\(body.count)")]), context: context)
      trickle(ArraySlice(body), chunk: max(1, chunk), interval: interval, context: context)
    case .resource(let resource):
      serve(resource, request: request, isHead: isHead, context: context)
    case .endless(let line):
      write(header(200, "OK", [("Transfer-Encoding", "chunked")]), context: context)
      let piece = Array(String(repeating: line, count: max(1, 65_536 / max(1, line.utf8.count))).utf8)
      pump(Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10], context: context)
    }
  }

  /// Writes `chunk` again each time the last copy has left, until the client goes away.
  private func pump(_ chunk: [UInt8], context: ChannelHandlerContext) {
    guard context.channel.isActive else { return }
    let buffer = context.channel.allocator.buffer(bytes: chunk)
    context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { [self] result in
      guard case .success = result else { return }
      // A new turn of the event loop, so a fast reader does not make the stack grow.
      context.eventLoop.execute { self.pump(chunk, context: context) }
    }
  }

  private func trickle(
    _ rest: ArraySlice<UInt8>, chunk: Int, interval: TimeAmount, context: ChannelHandlerContext
  ) {
    guard !rest.isEmpty, context.channel.isActive else { return }
    write(Array(rest.prefix(chunk)), context: context)
    let remaining = rest.dropFirst(chunk)
    context.eventLoop.scheduleTask(in: interval) { [self] in
      self.trickle(remaining, chunk: chunk, interval: interval, context: context)
    }
  }

  private func serve(
    _ resource: FixtureServer.Resource, request: FixtureServer.RecordedRequest, isHead: Bool,
    context: ChannelHandlerContext
  ) {
    var fields: [(String, String)] = [("Content-Type", resource.contentType)]
    if let etag = resource.etag { fields.append(("ETag", etag)) }
    if let lastModified = resource.lastModified { fields.append(("Last-Modified", lastModified)) }
    if resource.acceptsRanges { fields.append(("Accept-Ranges", "bytes")) }

    let notModified =
      if let tag = request.header("If-None-Match") {
        tag == resource.etag
      } else if let since = request.header("If-Modified-Since") {
        since == resource.lastModified
      } else {
        false
      }
    if notModified {
      write(header(304, "Not Modified", fields), context: context)
      return
    }

    var body = ArraySlice(resource.body)
    var status = (200, "OK")
    if resource.acceptsRanges, let range = request.header("Range"), range.hasPrefix("bytes="),
      let start = Int(range.dropFirst(6).prefix { $0 != "-" })
    {
      let validator = request.header("If-Range")
      let rangeStillValid = validator == nil || validator == resource.etag || validator == resource.lastModified
      if rangeStillValid {
        guard start < resource.body.count else {
          write(
            header(416, "Range Not Satisfiable", [("Content-Range", "bytes */\(resource.body.count)")]),
            context: context)
          return
        }
        body = resource.body[start...]
        status = (206, "Partial Content")
        fields.append(("Content-Range", "bytes \(start)-\(resource.body.count - 1)/\(resource.body.count)"))
      }
    }
    let payload = isHead ? [] : Array(body)
    switch resource.framing {
    case .contentLength:
      fields.append(("Content-Length", "\(body.count)"))
      write(header(status.0, status.1, fields) + payload, context: context)
    case .chunked:
      fields.append(("Transfer-Encoding", "chunked"))
      var out = header(status.0, status.1, fields)
      var index = payload.startIndex
      while index < payload.endIndex {
        let end = min(index + 1000, payload.endIndex)
        out += Array(String(end - index, radix: 16).utf8) + [13, 10] + payload[index..<end] + [13, 10]
        index = end
      }
      out += Array("0\r\n\r\n".utf8)
      write(out, context: context)
    case .closeDelimited:
      fields.append(("Connection", "close"))
      write(header(status.0, status.1, fields) + payload, context: context, thenClose: true)
    }
  }
}
