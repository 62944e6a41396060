import AsyncHTTPClient
import BlockerTest
import Foundation
import NIOSSL
import TestSupport
import Testing

@Suite("The HTTPS probe")
struct HTTPSProbeTests {
  /// Resolves every name to 127.0.0.1 (a server of the test), or as the table says.
  static func resolver(_ table: [String: Result<[String], HTTPSProbe.ResolveFailure>]) -> HTTPSProbe.Resolve {
    { name in table[name] ?? .success(["127.0.0.1"]) }
  }

  @Test("Any HTTP response is reachable; a sinkhole or unknown name is blocked; a refused connection is inconclusive")
  func outcomes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let certificate = try TestCertificate.generate(in: directory)
    let client = HTTPSProbe.makeClient(timeout: .seconds(5), trustRoots: [certificate.certificatePath])
    let untrusting = HTTPSProbe.makeClient(timeout: .seconds(5))
    do {
      try await Self.probes(certificate: certificate, client: client, untrusting: untrusting)
    } catch {
      try? await client.shutdown()
      try? await untrusting.shutdown()
      throw error
    }
    try await client.shutdown()
    try await untrusting.shutdown()
  }

  static func probes(certificate: TestCertificate, client: HTTPClient, untrusting: HTTPClient) async throws {
    try await FixtureServer.with(certificate: certificate) { server in
      server.route("/", .status(404))
      let table: [String: Result<[String], HTTPSProbe.ResolveFailure>] = [
        "null.blog": .success(["0.0.0.0"]),
        "gone.blog": .failure(.init(code: -2, message: "Name or service not known")),
      ]
      let sinkholes = Sinkholes(loopbackBlocks: false)
      let probe = HTTPSProbe(
        sinkholes: sinkholes, timeout: .seconds(5), port: server.port, client: client, resolve: Self.resolver(table))
      let answered = await probe.probe("tracker.blog")
      #expect(answered.outcome == .reachable && answered.reason == "HTTP 404 from 127.0.0.1", "\(answered)")
      #expect(server.requests.last?.header("Host") == "tracker.blog")
      #expect(server.requests.last?.method == "HEAD")
      let null = await probe.probe("null.blog")
      #expect(null.outcome == .blocked && null.reason.contains("0.0.0.0"), "\(null)")
      let gone = await probe.probe("gone.blog")
      #expect(gone.outcome == .blocked, "\(gone)")
      // A certificate that is not trusted: the connection was made, so reachable.
      let tlsError = await HTTPSProbe(
        sinkholes: sinkholes, timeout: .seconds(5), port: server.port, client: untrusting,
        resolve: Self.resolver([:])
      ).probe("tracker.blog")
      #expect(tlsError.outcome == .reachable && tlsError.reason.hasPrefix("TLS error after connecting"), "\(tlsError)")
    }
    // Nothing listens: a refusal from a routable address is inconclusive, never blocked.
    let closed = try FreePort.forDNS()
    let refused = await HTTPSProbe(
      sinkholes: Sinkholes(loopbackBlocks: false), timeout: .seconds(5), port: Int(closed), client: client,
      resolve: Self.resolver([:])
    ).probe("tracker.blog")
    #expect(refused.outcome == .inconclusive, "\(refused)")
  }
}
