import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("sanehosts fetch, run as a process")
struct FetchCommandTests {
  let list = "# test list\n0.0.0.0 ads.website\n0.0.0.0 tracker.website\n"

  /// A runner whose temporary files go to `directory`, so leftovers can be checked.
  func runner(_ directory: TemporaryDirectory) throws -> CommandRunner {
    var runner = try CommandRunner()
    runner.environment["TMPDIR"] = directory.url.path
    return runner
  }

  @Test("A list is saved atomically to --output, with plain progress lines when piped")
  func saveToFile() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .resource(.init(list, etag: "\"abc\"")))
        let output = directory.file("hosts.txt")
        let result = try await runner(directory).run(["fetch", server.url("/hosts").absoluteString, "-o", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try String(contentsOf: output, encoding: .utf8) == list)
        #expect(result.standardError.contains("hosts: connecting"))
        #expect(result.standardError.contains("Saved 56 B to \(output.path)"))
        #expect(!result.standardError.contains("\u{1B}["), "no terminal escapes in a pipe")
        #expect(directory.contents() == ["hosts.txt"])
      }
    }
  }

  @Test("Without --output the list goes to standard output")
  func standardOutput() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .resource(.init(list)))
        let result = try await runner(directory).run(["fetch", "--quiet", server.url("/hosts").absoluteString])
        #expect(result.status == 0)
        #expect(result.standardOutput == list)
        #expect(result.standardError.isEmpty)
        #expect(directory.contents().isEmpty)
      }
    }
  }

  @Test("--json prints one event per line, ending with the checksum")
  func json() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .resource(.init(list, etag: "\"abc\"")))
        let output = directory.file("hosts.txt")
        let result = try await runner(directory).run([
          "fetch", "--json", server.url("/hosts").absoluteString, "--output", output.path,
        ])
        #expect(result.status == 0)
        let events = try result.standardOutput.split(separator: "\n").map {
          try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(events.first?["event"] as? String == "connecting")
        let last = try #require(events.last)
        #expect(last["event"] as? String == "completed")
        #expect(last["etag"] as? String == "\"abc\"")
        #expect((last["sha256"] as? String)?.count == 64)
      }
    }
  }

  @Test("A failed download exits 1 with the reason and a suggestion, and keeps the old file")
  func failureKeepsOldCopy() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .status(404))
        let output = directory.file("hosts.txt")
        try Data("old copy\n".utf8).write(to: output)
        let result = try await runner(directory).run(["fetch", server.url("/hosts").absoluteString, "-o", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("answered HTTP 404"))
        #expect(result.standardError.contains("check the source's URL"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "old copy\n")
        #expect(directory.contents() == ["hosts.txt"])
      }
    }
  }

  @Test("An output in a missing directory fails with the path named, and leaves no temporary file")
  func missingOutputDirectory() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .resource(.init(list)))
        let output = directory.file("no/such/dir/hosts.txt")
        let result = try await runner(directory).run(["fetch", server.url("/hosts").absoluteString, "-o", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Could not read or write \(output.path)"))
        #expect(directory.contents().isEmpty, "\(directory.contents())")
      }
    }
  }

  @Test("An unchanged list is not downloaded again")
  func notModified() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .resource(.init(list, etag: "\"abc\"")))
        let output = directory.file("hosts.txt")
        try Data("old copy\n".utf8).write(to: output)
        let result = try await runner(directory).run([
          "fetch", server.url("/hosts").absoluteString, "-o", output.path, "--etag", "\"abc\"",
        ])
        #expect(result.status == 0)
        #expect(result.standardError.contains("not modified"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "old copy\n")
      }
    }
  }

  @Test("Plain http to another machine is refused before any connection")
  func insecure() async throws {
    try await TemporaryDirectory.with { directory in
      let result = try await runner(directory).run([
        "fetch", "http://lists.website/hosts", "-o", directory.file("x").path,
      ])
      #expect(result.status == 1)
      #expect(result.standardError.contains("plain http"))
      #expect(directory.contents().isEmpty)
    }
  }

  @Test("Ctrl-C in the middle of a download exits cleanly and leaves nothing behind")
  func interrupt() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/hosts", .stall(body: seededBytes(count: 100_000), after: 20_000))
        let output = directory.file("hosts.txt")
        let result = try await runner(directory).run([
          "fetch", server.url("/hosts").absoluteString, "-o", output.path,
        ]) { process in
          // Wait until the transfer is under way (its temporary file exists), then interrupt.
          let started = await eventually { directory.contents().contains { $0.hasSuffix(".part") } }
          #expect(started)
          kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 130)
        #expect(result.standardError.contains("Cancelled; nothing was written."))
        #expect(directory.contents().isEmpty, "no partial or temporary file: \(directory.contents())")
      }
    }
  }

  @Test("Bad options are rejected with a message naming the value")
  func validation() async throws {
    let result = try await CommandRunner().run(["fetch", "https://lists.website/h", "--attempts", "0"])
    #expect(result.status != 0)
    #expect(result.standardError.contains("--attempts must be at least 1, not 0"))
    let json = try await CommandRunner().run(["fetch", "https://lists.website/h", "--json"])
    #expect(json.standardError.contains("--json needs --output"))
  }
}
