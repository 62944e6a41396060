import Crypto
import Downloads
import Foundation
import TestSupport
import Testing

/// Runs a download to its end and returns every event.
func collectEvents(_ stream: AsyncStream<DownloadEvent>) async -> [DownloadEvent] {
  var all: [DownloadEvent] = []
  for await event in stream { all.append(event) }
  return all
}

func sha256(_ bytes: [UInt8]) -> String {
  SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}

extension [DownloadEvent] {
  var progress: [DownloadProgress] {
    compactMap { if case .progress(let value) = $0 { value } else { nil } }
  }
  var completed: CompletedDownload? {
    last.flatMap { if case .completed(let value) = $0 { value } else { nil } }
  }
  var failure: DownloadError? {
    last.flatMap { if case .failed(let value) = $0 { value } else { nil } }
  }
}

/// A configuration for tests: temp files in `directory`, short limits, no real backoff waits.
func testConfiguration(_ directory: TemporaryDirectory, attempts: Int = 3) -> DownloadConfiguration {
  DownloadConfiguration(
    // Generous: on 2 busy cores a reader can be scheduled seconds late; tests of timeouts set their own.
    connectTimeout: .seconds(10), idleTimeout: .seconds(20), totalTimeout: .seconds(120),
    retry: RetryPolicy(maximumAttempts: attempts, initialDelay: .zero),
    temporaryDirectory: directory.url)
}

/// Runs `body` with a fixture server, a temp directory and a manager on the real clock.
func withFixture(
  attempts: Int = 3, idleTimeout: Duration? = nil, maximumBytes: Int64? = nil,
  _ body: (FixtureServer, DownloadManager<ContinuousClock>, TemporaryDirectory) async throws -> Void
) async throws {
  try await TemporaryDirectory.with { directory in
    try await FixtureServer.with { server in
      var configuration = testConfiguration(directory, attempts: attempts)
      if let idleTimeout { configuration.idleTimeout = idleTimeout }
      if let maximumBytes { configuration.maximumBytes = maximumBytes }
      try await DownloadManager.withManager(configuration: configuration) { manager in
        try await body(server, manager, directory)
      }
    }
  }
}

@Suite("Downloading over HTTP from a local fixture server")
struct DownloadManagerTests {
  let body = seededBytes(count: 300_000)

  @Test("A body with Content-Length arrives whole, with size, checksum and validators")
  func contentLength() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .resource(.init(body, etag: "\"v1\"", lastModified: "Mon, 02 Nov 2026 10:00:00 GMT")))
      let all = await collectEvents(manager.download(server.url("/list")))
      let done = try #require(all.completed)
      #expect(all.first == .connecting(attempt: 1))
      #expect(try Data(contentsOf: done.fileURL) == Data(body))
      #expect(done.byteCount == Int64(body.count))
      #expect(done.sha256 == sha256(body))
      #expect(done.etag == "\"v1\"")
      #expect(done.lastModified == "Mon, 02 Nov 2026 10:00:00 GMT")
      #expect(done.statusCode == 200)
      #expect(done.attempts == 1)
      let last = try #require(all.progress.last)
      #expect(last.bytesReceived == Int64(body.count))
      #expect(last.totalBytes == Int64(body.count))
      #expect(last.fraction == 1)
      #expect(directory.contents() == [done.fileURL.lastPathComponent])
    }
  }

  @Test(
    "Without a length the progress is indeterminate, unless the caller expected a size",
    arguments: [
      FixtureServer.Resource.Framing.chunked, .closeDelimited,
    ])
  func unknownLength(framing: FixtureServer.Resource.Framing) async throws {
    try await withFixture { server, manager, _ in
      server.route("/list", .resource(.init(body, framing: framing)))
      let all = await collectEvents(manager.download(server.url("/list")))
      let done = try #require(all.completed)
      #expect(try Data(contentsOf: done.fileURL) == Data(body))
      #expect(all.progress.allSatisfy { $0.totalBytes == nil || $0.bytesReceived == Int64(body.count) })
      #expect(all.progress.dropLast().allSatisfy { $0.isIndeterminate })

      let expected = await collectEvents(manager.download(server.url("/list"), expectedSize: Int64(body.count)))
      #expect(expected.progress.allSatisfy { $0.fraction != nil })
    }
  }

  @Test("An unchanged list answers 304 and ends in notModified, by ETag or by date")
  func conditional() async throws {
    try await withFixture { server, manager, directory in
      let date = "Mon, 02 Nov 2026 10:00:00 GMT"
      server.route("/list", .resource(.init(body, etag: "\"v1\"", lastModified: date)))
      let byTag = await collectEvents(
        manager.download(DownloadRequest(url: server.url("/list"), validators: Validators(etag: "\"v1\""))))
      guard case .notModified(let answer) = try #require(byTag.last) else {
        Issue.record("expected notModified, got \(byTag)")
        return
      }
      #expect(answer.validators.etag == "\"v1\"")
      #expect(server.requests(to: "/list").last?.header("If-None-Match") == "\"v1\"")

      let byDate = await collectEvents(
        manager.download(DownloadRequest(url: server.url("/list"), validators: Validators(lastModified: date))))
      #expect(byDate.last?.isTerminal == true)
      if case .notModified = byDate.last {} else { Issue.record("expected notModified, got \(byDate)") }
      #expect(server.requests(to: "/list").last?.header("If-Modified-Since") == date)

      let changed = await collectEvents(
        manager.download(DownloadRequest(url: server.url("/list"), validators: Validators(etag: "\"v0\""))))
      #expect(changed.completed?.sha256 == sha256(body))
      #expect(directory.contents().count == 1)
    }
  }

  @Test("A connection dropped mid-body without validators is retried from the start")
  func resume() async throws {
    try await withFixture { server, manager, _ in
      server.route(
        "/list", .drop(body: body, after: 100_000),
        .resource(.init(body, etag: "\"v1\"", acceptsRanges: true)))
      // The dropped response carried no validator, so the second attempt cannot resume: it starts over.
      let plain = await collectEvents(manager.download(server.url("/list")))
      let done = try #require(plain.completed)
      #expect(done.sha256 == sha256(body))
      #expect(done.attempts == 2)
      #expect(plain.contains(.connecting(attempt: 2)))
      #expect(server.requests(to: "/list").last?.header("Range") == nil)
    }
  }

  @Test("Resuming appends only the missing bytes when the server honours the range")
  func resumeWithRange() async throws {
    try await withFixture { server, manager, _ in
      let head = Array(body.prefix(120_000))
      server.route(
        "/list",
        .raw(
          Array("HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + head),
        .resource(.init(body, etag: "\"v1\"", acceptsRanges: true)))
      let all = await collectEvents(manager.download(server.url("/list")))
      let done = try #require(all.completed)
      #expect(done.sha256 == sha256(body))
      #expect(done.byteCount == Int64(body.count))
      #expect(done.statusCode == 206)
      let second = try #require(server.requests(to: "/list").last)
      #expect(second.header("If-Range") == "\"v1\"")
      // The client keeps what it had consumed when the connection dropped, at most what was sent.
      let reason = all.compactMap { if case .retrying(_, _, _, let reason) = $0 { reason } else { nil } }.first
      guard case .connectionLost(_, let received, let expected) = reason else {
        Issue.record("expected a retry after a lost connection, got \(all)")
        return
      }
      #expect(received > 0 && received <= 120_000)
      #expect(expected == Int64(body.count))
      #expect(second.header("Range") == "bytes=\(received)-")
    }
  }

  @Test("A server that ignores Range sends the whole list again and the file starts over")
  func rangeIgnored() async throws {
    try await withFixture { server, manager, _ in
      server.route(
        "/list",
        .raw(
          Array("HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(5000)),
        .resource(.init(body, etag: "\"v1\"", acceptsRanges: false)))
      let done = try #require(await collectEvents(manager.download(server.url("/list"))).completed)
      #expect(done.sha256 == sha256(body))
      #expect(done.statusCode == 200)
      #expect(try Data(contentsOf: done.fileURL).count == body.count)
    }
  }

  @Test("Transient statuses are retried, counted from attempt 1; final ones are not")
  func retries() async throws {
    try await withFixture { server, manager, directory in
      server.route("/flaky", .status(503), .status(500), .resource(.init("0.0.0.0 ads.website\n")))
      let all = await collectEvents(manager.download(server.url("/flaky")))
      #expect(all.completed?.attempts == 3)
      let retries = all.compactMap { if case .retrying(let a, let of, _, _) = $0 { "\(a)/\(of)" } else { nil } }
      #expect(retries == ["2/3", "3/3"])

      server.route("/gone", .status(404))
      let gone = await collectEvents(manager.download(server.url("/gone")))
      #expect(gone.failure == .httpStatus(url: server.url("/gone").absoluteString, code: 404))
      #expect(server.requests(to: "/gone").count == 1)

      server.route("/down", .status(503))
      let down = await collectEvents(manager.download(server.url("/down")))
      #expect(down.failure == .httpStatus(url: server.url("/down").absoluteString, code: 503))
      #expect(server.requests(to: "/down").count == 3)
      #expect(directory.contents().count == 1, "only the completed file remains")
    }
  }

  @Test("Redirects are followed up to the limit; loops and downgrades are refused")
  func redirects() async throws {
    try await withFixture { server, manager, _ in
      server.route("/old", .redirect(to: "/hop"))
      server.route("/hop", .redirect(to: server.url("/new").absoluteString, status: 301))
      server.route("/new", .resource(.init("0.0.0.0 ads.website\n")))
      let moved = try #require(await collectEvents(manager.download(server.url("/old"))).completed)
      #expect(moved.finalURL == server.url("/new"))

      server.route("/a", .redirect(to: "/b"))
      server.route("/b", .redirect(to: "/a"))
      let loop = await collectEvents(manager.download(server.url("/a")))
      #expect(loop.failure == .redirectLoop(url: server.url("/a").absoluteString))

      for index in 0..<7 { server.route("/r\(index)", .redirect(to: "/r\(index + 1)")) }
      let long = await collectEvents(manager.download(server.url("/r0")))
      #expect(long.failure == .tooManyRedirects(url: server.url("/r0").absoluteString, limit: 5))

      server.route("/file", .redirect(to: "file:///etc/passwd"))
      let file = await collectEvents(manager.download(server.url("/file")))
      #expect(file.failure == .insecureRedirect(from: server.url("/file").absoluteString, to: "file:///etc/passwd"))

      server.route("/away", .redirect(to: "http://example.com/list"))
      let away = await collectEvents(manager.download(server.url("/away")))
      #expect(
        away.failure == .insecureRedirect(from: server.url("/away").absoluteString, to: "http://example.com/list"))
    }
  }

  @Test("A stalled body ends in an idle timeout, not a hang")
  func stall() async throws {
    try await withFixture(attempts: 1, idleTimeout: .milliseconds(300)) {
      server, manager, directory in
      server.route("/stall", .stall(body: body, after: 1000))
      let all = await collectEvents(manager.download(server.url("/stall")))
      #expect(
        all.failure == .timeout(url: server.url("/stall").absoluteString, kind: .idle, limit: .milliseconds(300)))
      #expect(directory.contents().isEmpty)
    }
  }

  @Test("Documents above the size limit are refused, announced or not")
  func tooLarge() async throws {
    try await withFixture(maximumBytes: 100_000) { server, manager, directory in
      server.route("/announced", .resource(.init(body)))
      let announced = await collectEvents(manager.download(server.url("/announced")))
      #expect(
        announced.failure
          == .tooLarge(url: server.url("/announced").absoluteString, limit: 100_000, announced: Int64(body.count)))
      server.route("/chunked", .resource(.init(body, framing: .chunked)))
      let chunked = await collectEvents(manager.download(server.url("/chunked")))
      #expect(chunked.failure == .tooLarge(url: server.url("/chunked").absoluteString, limit: 100_000, announced: nil))
      #expect(directory.contents().isEmpty)
    }
  }

  @Test("A response that is not HTTP fails with a named error")
  func garbage() async throws {
    try await withFixture(attempts: 1) { server, manager, directory in
      server.route("/junk", .raw(Array("\u{0}\u{1}SSH-2.0-OpenSSH\r\n\r\n".utf8)))
      let all = await collectEvents(manager.download(server.url("/junk")))
      #expect(all.failure != nil)
      #expect(all.failure?.errorDescription?.contains(server.url("/junk").absoluteString) == true)
      #expect(directory.contents().isEmpty)
    }
  }

  @Test(
    "Regression: a closed port is reported as unreachable at once, not at the connect timeout: a refused connection is not retried, by the manager or by the HTTP client's pool"
  )
  func unreachable() async throws {
    // A port held closed for the whole test (a closed server's port could be taken by another test's
    // server meanwhile: the connection was then accepted and lost, and retried).
    try await FreePort.withClosedPort { port in try await Self.unreachable(port: port) }
  }

  static func unreachable(port: UInt16) async throws {
    try await TemporaryDirectory.with { directory in
      var configuration = testConfiguration(directory, attempts: 3)
      // Far beyond any machine's slowness: the old client kept connecting again until this ran out.
      configuration.connectTimeout = .seconds(60)
      try await DownloadManager.withManager(configuration: configuration) { manager in
        let start = ContinuousClock.now
        let all = await collectEvents(manager.download(URL(string: "http://127.0.0.1:\(port)/list")!))
        let elapsed = ContinuousClock.now - start
        guard case .unreachableHost = all.failure else {
          Issue.record("expected unreachable, got \(all)")
          return
        }
        #expect(elapsed < .seconds(30), "failed after \(elapsed), as at the connect timeout")
        #expect(!all.contains { if case .retrying = $0 { true } else { false } }, "\(all)")
      }
    }
  }

  @Test("Messages never show credentials from the URL")
  func redaction() async throws {
    try await withFixture { server, manager, _ in
      server.route("/private", .status(401))
      let url = URL(string: "http://user:s3cret@127.0.0.1:\(server.port)/private")!
      let all = await collectEvents(manager.download(url))
      let message = try #require(all.failure?.errorDescription)
      #expect(!message.contains("s3cret"))
      #expect(message.contains("127.0.0.1:\(server.port)/private"))
    }
  }
}
