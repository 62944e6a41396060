import Downloads
import Foundation
import TestSupport
import Testing

@Suite("Downloading over HTTPS")
struct DownloadManagerTLSTests {
  @Test("A server whose certificate is trusted serves the list; an untrusted one is a named TLS error, not retried")
  func tls() async throws {
    try await TemporaryDirectory.with { directory in
      let certificate = try TestCertificate.generate(in: directory)
      try await FixtureServer.with(certificate: certificate) { server in
        server.route("/hosts", .resource(.init("0.0.0.0 ads.website\n", etag: "\"t\"")))
        #expect(server.url("/hosts").scheme == "https")

        var trusting = testConfiguration(directory)
        trusting.extraTrustRoots = [certificate.certificatePath]
        let done = try await DownloadManager.withManager(configuration: trusting) { manager in
          await collectEvents(manager.download(server.url("/hosts"))).completed
        }
        #expect(done?.etag == "\"t\"")
        #expect(done.map { try? String(contentsOf: $0.fileURL, encoding: .utf8) } == "0.0.0.0 ads.website\n")

        let failure = try await DownloadManager.withManager(configuration: testConfiguration(directory)) { manager in
          await collectEvents(manager.download(server.url("/other"))).failure
        }
        guard case .tls(let url, _) = failure else {
          Issue.record("expected a TLS error, got \(String(describing: failure))")
          return
        }
        #expect(url == server.url("/other").absoluteString)
        #expect(server.requests(to: "/other").isEmpty, "no request crossed an untrusted connection")
      }
    }
  }
}
