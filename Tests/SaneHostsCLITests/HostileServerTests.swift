import Foundation
import NIOCore
import TestSupport
import Testing

/// `sanehosts update` as a user runs it, against servers that try to exhaust it: its memory and time
/// stay within the limits it was given, and the good source still gets through.
@Suite("sanehosts update against hostile servers: bounded memory and time")
struct HostileServerTests {
  @Test(
    "An endless body, a gzip bomb and a 1 byte/s trickle: each refused by name within the limits, memory far below the size limit"
  )
  func boundedMemoryAndTime() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let bomb = try GzipBomb.make(inflatedSize: 256 << 20)
    try await FixtureServer.with { server in
      server.route("/good", .resource(.init("0.0.0.0 good.website\n", etag: "\"g\"")))
      server.route("/endless", .endless(line: "0.0.0.0 endless.website\n"))
      server.route("/bomb", GzipBomb.response(bomb))
      server.route(
        "/slow",
        .trickle(
          body: Array(String(repeating: "0.0.0.0 slow.website\n", count: 20).utf8), chunk: 1,
          interval: .seconds(1)))
      for name in ["good", "endless", "bomb", "slow"] {
        try await cli.ok("sources", "add", server.url("/\(name)").absoluteString, "--name", name)
      }
      let start = ContinuousClock.now
      let run = try await MemorySampler.run(
        try CommandRunner().executable, ["update", "--max-size", "64", "--timeout", "8"],
        environment: ["SANEHOSTS_HOME": cli.dataDirectory.path, "TERM": "dumb"])
      let elapsed = ContinuousClock.now - start
      print("hostile update: \(run.peakBytes >> 20) MiB peak, \(elapsed), status \(run.status)")

      // The good source got through, so the run counts as partial: exit status 0, as documented.
      #expect(run.status == 0, "\(run.output)")
      #expect(run.output.contains("! endless: "), "\(run.output)")
      #expect(run.output.contains("sent more than the limit of 67108864 bytes"), "\(run.output)")
      #expect(run.output.contains("! bomb: "), "\(run.output)")
      #expect(run.output.contains("gzip-compressed"), "\(run.output)")
      #expect(run.output.contains("! slow: "), "\(run.output)")
      #expect(run.output.contains("took longer than 8 s in all"), "\(run.output)")
      #expect(run.output.contains("1 updated, 0 unchanged, 3 failed"), "\(run.output)")
      // 64 MiB streamed to disk and a 256 MiB bomb never inflated: holding either in memory would take
      // the process (about 30 MiB by itself) past 90 MiB.
      #expect(run.peakBytes > 0)
      // Under AddressSanitizer the binary's shadow memory and quarantine (256 MiB) are not SaneHosts's.
      if ProcessInfo.processInfo.environment["SANEHOSTS_SANITIZER"] == nil {
        #expect(run.peakBytes < 80 << 20, "peak \(run.peakBytes >> 20) MiB")
      }
      let staging = cli.dataDirectory.appending(path: "staging")
      #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
    }
  }
}
