import Apply
import Foundation
import TestSupport
import Testing

/// Kills `sanehosts apply` with SIGKILL at random moments: the hosts file must always be either the old
/// version or the new one, never a mix, and the next apply must work without --force.
@Suite("apply killed at random moments")
struct ApplyCrashTests {
  @Test("kill -9 at random points, many times: the file is always whole")
  func killNine() async throws {
    let big = (0..<40_000).map { "a\($0).website" }
    let fixture = try await ApplyFixture.make(names: big)
    defer { fixture.cli.remove() }
    // A second profile with other names, so every apply really changes the file.
    let other = fixture.cli.directory.file("other.txt")
    try Data(((0..<40_000).map { "b\($0).website" }.joined(separator: "\n") + "\n").utf8).write(to: other)
    try await fixture.cli.ok("profile", "create", "b")
    try await fixture.cli.ok("sources", "add", other.path, "--name", "other", "--profile", "b")
    try await fixture.cli.ok("update", "--quiet", "--profile", "b")

    // The two possible sections, and how long one apply takes here.
    let user = try fixture.hostsText()
    var sections: [String: [String]] = [:]
    var slowest = Duration.zero
    for profile in ["b", "default"] {
      let started = ContinuousClock.now
      try await fixture.cli.ok("apply", "--quiet", "--profile", profile, "--hosts-file", fixture.hosts.path)
      slowest = max(slowest, ContinuousClock.now - started)
      sections[profile] = try ManagedSection.lines(in: Array(try Data(contentsOf: fixture.hosts)))
    }
    let runner = try fixture.cli.runner
    var random = SystemRandomNumberGenerator()
    var seen: [String: Int] = [:]
    for round in 0..<30 {
      let profile = round % 2 == 0 ? "b" : "default"
      let delay = Double.random(in: 0...(slowest.secondsValue * 1.1), using: &random)
      _ = try await runner.run(["apply", "--quiet", "--profile", profile, "--hosts-file", fixture.hosts.path]) {
        process in
        try await Task.sleep(for: .seconds(delay))
        kill(process.processIdentifier, SIGKILL)
      }
      let bytes = Array(try Data(contentsOf: fixture.hosts))
      let lines = try ManagedSection.lines(in: bytes)
      let which = sections.first { $0.value == lines }?.key
      #expect(which != nil, "round \(round): the section is neither version")
      #expect(String(decoding: try ManagedSection.remove(from: bytes), as: UTF8.self) == user, "round \(round)")
      seen[which ?? "broken", default: 0] += 1
    }
    // Whatever happened, the next apply succeeds without --force and leaves no temporary file behind.
    try await fixture.cli.ok("apply", "--quiet", "--profile", "default", "--hosts-file", fixture.hosts.path)
    #expect(try ManagedSection.lines(in: Array(try Data(contentsOf: fixture.hosts))) == sections["default"])
    let leftovers = fixture.cli.directory.contents().filter { $0.contains(".sanehosts-") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    print("kill -9 rounds: \(seen), one apply takes \(slowest)")
  }
}

extension Duration {
  fileprivate var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
