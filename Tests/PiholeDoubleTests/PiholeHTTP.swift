import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TestSupport

/// A reply as the tests see it: status, headers, raw bytes and the body parsed as JSON.
struct PiholeHTTPReply {
  var status: Int
  var headers: HTTPHeaders
  var bytes: [UInt8]

  /// The raw body as text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The body as a JSON object; empty when it is not one.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
  }

  /// A nested object of the body, by keys.
  func object(_ keys: String...) -> [String: Any] {
    var current = json
    for key in keys { current = current[key] as? [String: Any] ?? [:] }
    return current
  }
}

/// Small HTTP helpers for talking to a `PiholeDouble`.
enum PiholeHTTP {
  /// Sends one request with AsyncHTTPClient and collects the whole reply.
  static func send(
    _ double: PiholeDouble, _ method: HTTPMethod, _ path: String, body: String? = nil,
    headers: [(String, String)] = []
  ) async throws -> PiholeHTTPReply {
    var request = HTTPClientRequest(url: double.baseURL + path)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let buffer = try await response.body.collect(upTo: 1 << 20)
    return PiholeHTTPReply(
      status: Int(response.status.code), headers: response.headers, bytes: Array(buffer.readableBytesView))
  }

  /// Logs in with `password` and returns the session's sid and csrf.
  static func login(_ double: PiholeDouble, password: String = "secret") async throws -> (sid: String, csrf: String) {
    let reply = try await send(double, .POST, "/api/auth", body: #"{"password":"\#(password)"}"#)
    let session = reply.object("session")
    return (session["sid"] as? String ?? "", session["csrf"] as? String ?? "")
  }

  /// Writes `request` on a fresh TCP connection and returns every byte received until the server closes it.
  static func raw(port: Int, _ request: String) async throws -> [UInt8] {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    return try await channel.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: request))
      var bytes: [UInt8] = []
      for try await buffer in inbound { bytes += Array(buffer.readableBytesView) }
      return bytes
    }
  }
}
