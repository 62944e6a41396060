import ArgumentParser
import AsyncHTTPClient
import Foundation
import Locking
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("sanehosts serve", .serialized)
struct ServeCommandTests {
  /// GETs a URL, returning status and body (nil when nothing listens yet).
  static func get(_ url: String, headers: [(String, String)] = []) async -> (Int, String)? {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    var request = HTTPClientRequest(url: url)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    var result: (Int, String)?
    if let response = try? await client.execute(request, timeout: .seconds(5)),
      let body = try? await response.body.collect(upTo: 1 << 22)
    {
      result = (Int(response.status.code), String(buffer: body))
    }
    try? await client.shutdown()
    return result
  }

  @Test("Serves the dashboard offline with an empty profile, says where, and stops cleanly on SIGTERM")
  func serve() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let hosts = cli.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    // A port found free can be taken by a concurrent test before the server binds it: that run is
    // tried again on another port (up to three times), and only then are its answers checked.
    for attempt in 1...3 {
      let port = try FreePort.forDNS()
      let seen = Locked<(up: Bool, status: (Int, String)?, page: (Int, String)?)>((false, nil, nil))
      let result = try await cli.run("serve", "--port", "\(port)", "--hosts-file", hosts.path) { process in
        let up = await eventually(within: 30) { await Self.get("http://127.0.0.1:\(port)/api/status") != nil }
        let status = up ? await Self.get("http://127.0.0.1:\(port)/api/status") : nil
        let page = up ? await Self.get("http://127.0.0.1:\(port)/") : nil
        seen.withLock { $0 = (up, status, page) }
        kill(process.processIdentifier, SIGTERM)
      }
      let (up, status, page) = seen.withLock { $0 }
      if !up && attempt < 3 && result.standardError.contains("Address already in use") { continue }
      #expect(up)
      #expect(status?.0 == 200)
      #expect(status?.1.contains("\"profile\":\"default\"") == true)
      #expect(page?.1.contains("id=\"names-blocked\">0<") == true)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("SaneHosts dashboard: http://127.0.0.1:\(port)/"))
      break
    }
  }

  @Test("Beyond loopback a token is generated once, saved 0600, printed once, and required")
  func token() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let port = try FreePort.forDNS()
    let first = try await cli.run("serve", "--host", "0.0.0.0", "--port", "\(port)") { process in
      let up = await eventually(within: 30) { await Self.get("http://127.0.0.1:\(port)/api/status") != nil }
      #expect(up)
      #expect(await Self.get("http://127.0.0.1:\(port)/api/status")?.0 == 401)
      kill(process.processIdentifier, SIGTERM)
    }
    #expect(first.status == 0, "\(first.standardError)")
    let tokenFile = cli.dataDirectory.appending(path: "dashboard.token")
    let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.count == 64)
    #expect(first.standardOutput.contains(token))
    let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    let second = try await cli.run("serve", "--host", "0.0.0.0", "--port", "\(port)") { process in
      let up = await eventually(within: 30) { await Self.get("http://127.0.0.1:\(port)/api/status") != nil }
      #expect(up)
      let authorized = await Self.get(
        "http://127.0.0.1:\(port)/api/status", headers: [("Authorization", "Bearer \(token)")])
      #expect(authorized?.0 == 200)
      kill(process.processIdentifier, SIGTERM)
    }
    #expect(second.status == 0)
    #expect(!second.standardOutput.contains(token), "printed only when generated")
  }

  @Test("Bad options are refused before starting")
  func validation() throws {
    #expect(throws: (any Error).self) { try ServeCommand.parse(["--port", "70000"]) }
    #expect(throws: (any Error).self) { try ServeCommand.parse(["--log-level", "loud"]) }
    let defaults = try ServeCommand.parse([])
    #expect(defaults.host == "127.0.0.1" && defaults.port == 8080 && defaults.hostsFile == "/etc/hosts")
  }
}
