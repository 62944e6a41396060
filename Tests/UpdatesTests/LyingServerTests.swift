import Blocklists
import Downloads
import Foundation
import GRDB
import NIOCore
import TestSupport
import Testing

@testable import Store
@testable import Updates

/// Fault injection on the download path: servers that lie about lengths, never stop, trickle, speak the
/// wrong protocol, redirect to local files or send compression bombs. Each lie must end in a named
/// failure within the configured limits, and the source must keep its previous good copy.
@Suite("Servers that lie: a named failure within the limits, and the previous copy kept", .serialized)
struct LyingServerTests {
  /// One way a server can lie, and how the update must report it.
  struct Lie: Sendable, CustomTestStringConvertible {
    var label: String
    var response: @Sendable () throws -> FixtureServer.Response
    var kind: SourceFailure.Kind
    /// A piece of the failure's message that names what went wrong.
    var says: String
    /// Tighter limits for the lie (a short total or idle time).
    var configure: @Sendable (inout DownloadConfiguration) -> Void = { _ in }

    var testDescription: String { label }
  }

  static let list = "0.0.0.0 one.website\n0.0.0.0 two.website\n"

  /// A raw response: these header lines, then `body`, then the connection closes.
  static func raw(_ headers: [String], _ body: String = list) -> FixtureServer.Response {
    .raw(Array(("HTTP/1.1 200 OK\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body).utf8))
  }

  static let lies: [Lie] = [
    Lie(
      label: "Content-Length longer than the body, then the connection closes",
      response: { .drop(body: Array(String(repeating: list, count: 1000).utf8), after: 5000) }, kind: .download,
      says: "ended after 5000 of"),
    Lie(
      label: "Content-Length longer than the body, then silence",
      response: { .stall(body: Array(String(repeating: list, count: 1000).utf8), after: 5000) }, kind: .download,
      says: "sent nothing for 1 s", configure: { $0.idleTimeout = .seconds(1) }),
    Lie(
      label: "Content-Length that is not a number",
      response: { raw(["Content-Length: 12abc"]) }, kind: .download,
      says: "did not answer with valid HTTP: invalid character in content-length"),
    Lie(
      label: "Two different Content-Lengths",
      response: { raw(["Content-Length: 10", "Content-Length: 42"]) }, kind: .download,
      says: "did not answer with valid HTTP: unexpected content-length"),
    Lie(
      label: "Content-Length over the limit, announced",
      response: { raw(["Content-Length: 999999999999"]) }, kind: .download, says: "999999999999 bytes"),
    Lie(
      label: "An endless body",
      response: { .endless(line: "0.0.0.0 endless.website\n") }, kind: .download,
      says: "sent more than the limit of 4194304 bytes", configure: { $0.maximumBytes = 4 << 20 }),
    Lie(
      label: "One byte per second",
      response: {
        .trickle(body: Array(String(repeating: list, count: 10).utf8), chunk: 1, interval: .seconds(1))
      }, kind: .download, says: "longer than 3 s in all",
      configure: {
        $0.totalTimeout = .seconds(3)
        $0.idleTimeout = .seconds(2)
      }),
    Lie(
      label: "A redirect to file:///etc/hosts",
      response: { .redirect(to: "file:///etc/hosts") }, kind: .download,
      says: "file:///etc/hosts, which is not followed"
    ),
    Lie(
      label: "A redirect to file:// with the list's own name",
      response: { .redirect(to: "file://localhost/etc/passwd") }, kind: .download, says: "which is not followed"),
    Lie(
      label: "A gzip bomb sent with Content-Encoding: gzip (never inflated)",
      response: { GzipBomb.response(try gzipBomb.get()) }, kind: .notAList, says: "gzip"),
    Lie(
      label: "Not HTTP at all",
      response: { .raw(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8) + Array(repeating: 0, count: 64)) }, kind: .download,
      says: "did not answer with valid HTTP"),
  ]

  /// 256 MiB of zeros through gzip: about 250 kB on the wire.
  static let gzipBomb = Result { try GzipBomb.make(inflatedSize: 256 << 20) }

  @Test("A lie ends in a named failure and the previous copy stays", arguments: lies)
  func lieKeepsCopy(_ lie: Lie) async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .resource(.init(Self.list, etag: "\"1\"")))
      try harness.add(server.url("/list"), key: "list")
      let first = try await harness.update()
      #expect(first.run.outcome == .completed)
      let before = try #require(try harness.store.sources().first?.source)
      let copy = try Data(contentsOf: harness.store.directory.file(try #require(before.cacheFile)))

      server.route("/list", try lie.response())
      let summary = try await harness.update(options: Updater.Options(force: true), configure: lie.configure)
      let failure = try #require(summary.outcome("list")?.failure, "\(lie.label) did not fail")
      #expect(failure.kind == lie.kind, "\(failure.message)")
      #expect(failure.message.contains(lie.says), "\(failure.message)")
      #expect(failure.message.hasPrefix("list: "), "the message names the source")
      #expect(failure.suggestion?.isEmpty == false, "\(failure.message): a suggestion is given")

      try await expectKept(before: before, copy: copy, harness: harness)
      #expect(summary.compiled?.names == first.compiled?.names, "the profile still blocks the old copy's names")
    }
  }

  /// The source's copy, checksum and names are those of the first update, and no temporary file is left.
  func expectKept(before: Source, copy: Data, harness: Harness) async throws {
    let after = try #require(try harness.store.sources().first?.source)
    #expect(after.status == .failed)
    #expect(after.cacheFile == before.cacheFile)
    #expect(after.sha256 == before.sha256)
    #expect(await harness.store.names(of: after) == ["one.website", "two.website"])
    #expect(try Data(contentsOf: harness.store.directory.file(try #require(after.cacheFile))) == copy)
    #expect(harness.stagingIsEmpty, "no partial download is left in staging")
  }

  @Test("A Content-Length shorter than the body: only the announced bytes are read, nothing after them")
  func shortContentLength() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    try await FixtureServer.with { server in
      let announced = "0.0.0.0 one.website\n"
      let smuggled = "0.0.0.0 smuggled.website\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
      server.route(
        "/list",
        .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: \(announced.utf8.count)\r\n\r\n\(announced)\(smuggled)".utf8)))
      try harness.add(server.url("/list"), key: "list")
      let summary = try await harness.update()
      #expect(summary.run.outcome == .completed)
      let source = try #require(try harness.store.sources().first?.source)
      #expect(await harness.store.names(of: source) == ["one.website"])
      #expect(summary.compiled?.names == 1)
    }
  }

  /// TLS that cannot be trusted: each must fail before any request is sent.
  enum TLSLie: String, CaseIterable, Sendable {
    case untrusted = "a self-signed certificate nobody trusts"
    case wrongName = "a trusted certificate for another name"
    case plainHTTP = "plain HTTP on an https:// URL"
    case tlsOnHTTP = "TLS on an http:// URL"
  }

  @Test("TLS that cannot be trusted fails by name before any request, and the copy stays", arguments: TLSLie.allCases)
  func tlsMismatch(_ lie: TLSLie) async throws {
    let harness = try Harness()
    defer { harness.remove() }
    let certificates = try TemporaryDirectory(prefix: "sanehosts-tls")
    defer { certificates.remove() }
    let good = try TestCertificate.generate(in: certificates)
    let other = try TestCertificate.generate(in: certificates, names: "DNS:other.website", file: "other")
    let untrusted = try TestCertificate.generate(in: certificates, file: "untrusted")

    let liarCertificate: TestCertificate? =
      switch lie {
      case .untrusted: untrusted
      case .wrongName: other
      case .plainHTTP: nil
      case .tlsOnHTTP: good
      }
    let trust: (inout DownloadConfiguration) -> Void = {
      $0.extraTrustRoots = [good.certificatePath, other.certificatePath]
      // AsyncHTTPClient keeps retrying a failed handshake until the connect time runs out, and then
      // reports the handshake's own error: a short limit keeps the test quick.
      $0.connectTimeout = .seconds(2)
    }

    // The first update goes to a server this harness trusts; then the source points at the liar.
    try await FixtureServer.with(certificate: good) { trusted in
      try await FixtureServer.with(certificate: liarCertificate) { liar in
        trusted.route("/list", .resource(.init(Self.list, etag: "\"1\"")))
        liar.route("/list", .resource(.init("0.0.0.0 evil.website\n", etag: "\"2\"")))
        let source = try harness.add(trusted.url("/list"), key: "list")
        let first = try await harness.update(configure: trust)
        #expect(first.run.outcome == .completed)
        let before = try #require(try harness.store.sources().first?.source)
        let copy = try Data(contentsOf: harness.store.directory.file(try #require(before.cacheFile)))

        // https for the TLS lies, http for TLS spoken to an http:// URL.
        let scheme = lie == .tlsOnHTTP ? "http" : "https"
        let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(liar.port)/list"))
        try await harness.store.database.write { db in
          try db.execute(
            sql: "UPDATE source SET location = ? WHERE id = ?", arguments: [url.absoluteString, source.id])
        }
        let summary = try await harness.update(options: Updater.Options(force: true), configure: trust)
        let failure = try #require(summary.outcome("list")?.failure, "\(lie.rawValue) did not fail")
        #expect(failure.kind == .download)
        #expect(failure.message.hasPrefix("list: "), "\(failure.message)")
        if lie == .tlsOnHTTP {
          // The TLS server answers the plain request with an alert and hangs up.
          #expect(failure.message.contains("ended after 0 bytes"), "\(failure.message)")
        } else {
          #expect(failure.message.contains("secure connection"), "\(failure.message)")
          #expect(liar.requests.isEmpty, "no request crossed a connection that was not trusted")
        }
        try await expectKept(before: before, copy: copy, harness: harness)
      }
    }
  }
}
