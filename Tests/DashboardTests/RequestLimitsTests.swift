import Dashboard
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP connection to the dashboard, for what no HTTP client sends: a head that never ends, a
/// body that is refused before it is sent.
struct RawConnection {
  let socket: Int32

  init(port: Int) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
  }

  /// Sends bytes; false once the server has closed the connection.
  @discardableResult
  func send(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
  }

  /// Reads until the server closes the connection or `seconds` pass; the bytes and whether it closed.
  /// It polls without waiting and sleeps between polls, so it holds none of the few threads the test run
  /// shares.
  func readUntilClosed(within seconds: Double) async throws -> (text: String, closed: Bool) {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 0) > 0 else {
        try await Task.sleep(for: .milliseconds(20))
        continue
      }
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
      bytes += buffer[0..<count]
    }
    return (String(decoding: bytes, as: UTF8.self), false)
  }

  func close() { Glibc.close(socket) }
}

@Suite("The dashboard sheds slow heads and refused bodies (RequestLimits)")
struct RequestLimitsTests {
  @Test("A head trickled a byte at a time, or never sent, is closed at the header timeout; a whole one is answered")
  func slowHeaders() async throws {
    try await DashboardHarness.with(headerTimeout: .milliseconds(700)) { harness in
      try await harness.live { client async throws in
        let silent = try RawConnection(port: client.port)
        let trickle = try RawConnection(port: client.port)
        defer {
          silent.close()
          trickle.close()
        }
        let started = Date()
        // 1 byte every 100 ms: the idle timeout never fires, the header timeout does.
        var open = true
        for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa".map(String.init)
        where open {
          open = trickle.send(byte)
          try await Task.sleep(for: .milliseconds(100))
          if Date().timeIntervalSince(started) > 4 { break }
        }
        // Closed long before the idle timeout (120 s) would close them; 10 s of slack, as under the whole
        // suite's load on 2 cores the closes came 8.4 s after the start.
        #expect(try await trickle.readUntilClosed(within: 10).closed, "the trickling client was closed")
        #expect(try await silent.readUntilClosed(within: 10).closed)
        // A client that sends its head at once is answered as ever, and may ask again on the connection.
        let reply = try await client.request("/api/status")
        #expect(reply.status == 200)
      }
    }
  }

  @Test("A POST with a wrong CSRF token and a 200 MB body is refused and closed before the body is read")
  func refusedBody() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        for (length, status) in [(200 << 20, "413"), (1 << 20, "403")] {
          let connection = try RawConnection(port: client.port)
          defer { connection.close() }
          connection.send(
            "POST /api/sources HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nContent-Type: application/json\r\n"
              + "X-CSRF-Token: wrong\r\nContent-Length: \(length)\r\n\r\n")
          connection.send(String(repeating: "x", count: 4096))
          let (text, closed) = try await connection.readUntilClosed(within: 20)
          #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text.prefix(200))")
          #expect(text.lowercased().contains("connection: close"))
          #expect(closed, "closed with the refusal, the other \(length - 4096) bytes never read")
        }
        #expect(try await client.request("/api/sources").body == "[]")
      }
    }
  }
}
