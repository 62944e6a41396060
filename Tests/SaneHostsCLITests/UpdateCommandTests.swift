import Foundation
import NIOCore
import TestSupport
import Testing

@Suite("sanehosts update, status and compile --profile")
struct UpdateCommandTests {
  @Test("Update in a pipe prints plain lines; a second run is unchanged; status and compile use the result")
  func updateThenUnchanged() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .resource(.init("0.0.0.0 ads.website\n0.0.0.0 track.website\n", etag: "\"a\"")))
      server.route("/b", .resource(.init("||cdn.website^\nbad..name\n", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
      try await cli.ok("sources", "add", server.url("/a").absoluteString, "--name", "a")
      try await cli.ok("sources", "add", server.url("/b").absoluteString, "--name", "b")
      try await cli.ok("allow", "add", "track.website")

      let first = try await cli.ok("update")
      #expect(first.contains("a: connecting"))
      #expect(first.contains("a: ✓ updated: 2 names, 0 rejected"))
      #expect(first.contains("b: ✓ updated: 1 name, 1 rejected"))
      #expect(first.contains("2 updated, 0 unchanged, 0 failed. 2 names blocked."))
      #expect(!first.contains("\u{1B}["), "no terminal escapes in a pipe")

      let second = try await cli.ok("update")
      #expect(second.contains("a: = unchanged (not modified)"))
      #expect(second.contains("0 updated, 2 unchanged, 0 failed. 2 names blocked (unchanged)."))

      let status = try await cli.ok("status")
      #expect(status.contains("Blocked names: 2"))
      #expect(status.contains("completed: 0 updated, 2 unchanged, 0 failed"))
      #expect(!status.contains("Warnings"))

      let compiled = try await cli.run("compile", "-f", "domains")
      #expect(compiled.status == 0)
      let names = compiled.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
      #expect(names == ["ads.website", "cdn.website"])

      // With an extra INPUT, the profile's copies and the input are merged.
      let extra = cli.directory.file("extra.txt")
      try "more.website\n".write(to: extra, atomically: true, encoding: .utf8)
      let merged = try await cli.run("compile", "--profile", "default", extra.path, "-f", "domains")
      #expect(merged.standardOutput.contains("more.website"))
      #expect(merged.standardOutput.contains("ads.website"))

      // A URL input is downloaded.
      let url = try await cli.run("compile", server.url("/a").absoluteString, "-f", "domains", "--quiet")
      #expect(url.status == 0, "\(url.standardError)")
      #expect(url.standardOutput.contains("track.website"))
    }
  }

  @Test("--json prints one event per line ending with the summary and the list health")
  func json() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .resource(.init("0.0.0.0 ads.website\n")))
      try await cli.ok("sources", "add", server.url("/a").absoluteString, "--name", "a")
      let output = try await cli.ok("update", "--json")
      let events = try output.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
      #expect(events.first?["event"] as? String == "started")
      let phases = events.filter { $0["source"] as? String == "a" }.compactMap { $0["phase"] as? String }
      #expect(phases.first == "waiting")
      #expect(phases.contains("downloading"))
      #expect(phases.last == "updated")
      // The summary, then the list health.
      #expect(events.last?["event"] as? String == "health")
      #expect(events.last?["held"] as? [String] == [])
      let last = try #require(events.dropLast().last)
      #expect(last["event"] as? String == "finished")
      #expect(last["names"] as? Int == 1)
      #expect(last["outcome"] as? String == "completed")
    }
  }

  @Test("Every source failing: exit 1 with reasons; status warns")
  func allFailing() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .status(404))
      try await cli.ok("sources", "add", server.url("/a").absoluteString, "--name", "a")
      let result = try await cli.run("update")
      #expect(result.status == 1)
      #expect(result.standardOutput.contains("! a: "))
      #expect(!result.standardOutput.contains("! a: a: "), "the key is not repeated")
      #expect(result.standardOutput.contains("answered HTTP 404"))
      let status = try await cli.ok("status")
      #expect(status.contains("Warnings:"))
      #expect(status.contains("a failed:"))
      let compile = try await cli.run("compile")
      #expect(compile.status == 1)
      #expect(compile.standardError.contains("run `sanehosts update` first"))
    }
  }

  @Test("Ctrl-C during an update exits 130 and leaves the store as it was")
  func interrupt() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .resource(.init("0.0.0.0 ads.website\n", etag: "\"1\"")))
      try await cli.ok("sources", "add", server.url("/a").absoluteString, "--name", "a")
      try await cli.ok("update")
      let before = try await cli.ok("sources", "list", "--json")
      let lists = cli.dataDirectory.appending(path: "lists")
      let filesBefore = try FileManager.default.contentsOfDirectory(atPath: lists.path)

      server.route("/a", .stall(body: Array(repeating: UInt8(ascii: "\n"), count: 100_000), after: 20_000))
      let staging = cli.dataDirectory.appending(path: "staging")
      let result = try await cli.run("update", "--force") { process in
        let started = await eventually {
          let files = FileManager.default.enumerator(atPath: staging.path)?.allObjects as? [String] ?? []
          return files.contains { $0.hasSuffix(".part") }
        }
        #expect(started)
        kill(process.processIdentifier, SIGINT)
      }
      #expect(result.status == 130)
      #expect(result.standardError.contains("Cancelled; the store is unchanged."))
      let after = try await cli.ok("sources", "list", "--json")
      #expect(after == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: lists.path) == filesBefore)
      #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)
    }
  }

  @Test("A second update while one runs exits 75 naming the running process")
  func concurrent() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/a", .stall(body: Array(repeating: UInt8(ascii: "\n"), count: 100_000), after: 20_000))
      try await cli.ok("sources", "add", server.url("/a").absoluteString, "--name", "a")
      let lock = cli.dataDirectory.appending(path: "update.lock")
      _ = try await cli.run("update") { process in
        let locked = await eventually {
          ((try? String(contentsOf: lock, encoding: .utf8)) ?? "").contains("\(process.processIdentifier)")
        }
        #expect(locked)
        let second = try await cli.run("update")
        #expect(second.status == 75)
        #expect(second.standardError.contains("Another update is running (process \(process.processIdentifier))"))
        kill(process.processIdentifier, SIGTERM)
      }
    }
  }
}
