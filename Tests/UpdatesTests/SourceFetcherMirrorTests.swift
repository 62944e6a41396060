import Foundation
import TestSupport
import Testing

@testable import Store
@testable import Updates

@Suite("Mirrors: a source whose own URL fails is fetched from its mirrors, with the same checks")
struct SourceFetcherMirrorTests {
  static let list = Array((0..<50).map { "0.0.0.0 n\($0).ads.website\n" }.joined().utf8)
  static let page = Array("<!DOCTYPE html><html><body>Moved</body></html>\n".utf8)

  @Test(
    "The primary fails (404), a mirror serves a web page, the next the list: the copy comes from that one and says so; status warns; when the primary is back, it serves again"
  )
  func fallback() async throws {
    let harness = try Harness()
    defer { harness.directory.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .status(404))
      server.route("/page", .resource(.init(Self.page)))
      server.route("/mirror", .resource(.init(Self.list)))
      var new = NewSource(location: server.url("/list"), key: "moved")
      new.mirrors = [server.url("/page"), server.url("/mirror")]
      try harness.store.addSource(new)
      let summary = try await harness.update()
      #expect(summary.compiled?.names == 50, "\(summary)")
      let source = try #require(try harness.store.sources().first?.source)
      #expect(source.status == .updated && source.servedFrom == server.url("/mirror").absoluteString)
      #expect(source.mirrors == [server.url("/page").absoluteString, server.url("/mirror").absoluteString])
      // The primary is back: it serves the same list, and the copy is its own again.
      server.route("/list", .resource(.init(Self.list)))
      _ = try await harness.update()
      #expect(try harness.store.sources().first?.source.servedFrom == nil)
    }
  }

  @Test("Every place fails: the source fails, its message names each, and the previous copy stays")
  func allFail() async throws {
    let harness = try Harness()
    defer { harness.directory.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .resource(.init(Self.list)))
      var new = NewSource(location: server.url("/list"), key: "gone")
      new.mirrors = [server.url("/mirror")]
      try harness.store.addSource(new)
      _ = try await harness.update()
      server.route("/list", .status(500))
      server.route("/mirror", .status(404))
      let summary = try await harness.update()
      let source = try #require(try harness.store.sources().first?.source)
      #expect(source.status == .failed)
      #expect(
        source.message?.contains("500") == true && source.message?.contains("mirror") == true, "\(source.message ?? "")"
      )
      #expect(source.message?.contains("404") == true)
      // Regression: the run's outcome (what `update` prints last) named only the last mirror.
      let failure = try #require(
        summary.outcomes.compactMap { outcome -> SourceFailure? in
          if case .failed(let failure) = outcome.1 { return failure }
          return nil
        }.first)
      #expect(failure.message.contains(server.url("/list").absoluteString), "\(failure.message)")
      #expect(failure.message.contains(server.url("/mirror").absoluteString), "\(failure.message)")
      #expect(failure.message.hasPrefix("gone: its URL and every mirror failed: (1) "), "\(failure.message)")
      #expect(summary.compiled?.names == 50, "the previous copy is used")
      #expect(source.servedFrom == nil)
    }
  }
}
