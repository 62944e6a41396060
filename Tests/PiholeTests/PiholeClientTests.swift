import Foundation
import Locking
import Pihole
import TestSupport
import Testing

@Suite("The Pi-hole client against the test double")
struct PiholeClientTests {
  static func host(_ double: PiholeDouble) throws -> PiholeHost { try PiholeHost(double.baseURL + "/admin") }

  @Test("A session: lists and rules are read and written, processed errors surface, and the session is logged out")
  func session() async throws {
    try await PiholeDouble.with { double in
      double.addList("https://lists.website/theirs.txt", comment: "added by hand", domains: ["ads.website"])
      try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { client in
        #expect(double.activeSessions == 1)
        let lists = try await client.lists()
        #expect(lists.map(\.address) == ["https://lists.website/theirs.txt"])
        #expect(lists.first?.number == 1)
        let added = try await client.addLists(
          ["https://lists.website/a.txt", "https://lists.website/theirs.txt"], comment: "Added by SaneHosts")
        #expect(added.success == ["https://lists.website/a.txt"])
        #expect(added.errors.first?.error.contains("UNIQUE constraint failed") == true)
        try await client.removeList("https://lists.website/a.txt")
        let rules = try await client.addDomains(["tracker.website"], type: "deny", kind: "exact", comment: nil)
        #expect(rules.success == ["tracker.website"])
        #expect(try await client.domains(type: "deny", kind: "exact").map(\.domain) == ["tracker.website"])
        let search = try await client.search("ads.website")
        #expect(search.gravity.map(\.address) == ["https://lists.website/theirs.txt"])
        #expect(search.blocks)
        try await client.removeDomain("tracker.website", type: "deny", kind: "exact")
      }
      #expect(double.activeSessions == 0)
      #expect(double.requestLog.last.map { $0.method + " " + $0.path } == "DELETE /api/auth")
    }
  }

  @Test("Logged out also when the body throws")
  func logoutOnError() async throws {
    try await PiholeDouble.with { double in
      await #expect(throws: PiholeError.self) {
        try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { client in
          _ = try await client.addDomains(["[unclosed"], type: "deny", kind: "regex", comment: nil)
        }
      }
      #expect(double.activeSessions == 0)
    }
  }

  @Test("Logged out also when the task is cancelled in the middle")
  func logoutOnCancel() async throws {
    try await PiholeDouble.with { double in
      let host = try Self.host(double)
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          _ = try? await PiholeClient.withSession(host: host, password: "secret") { client in
            _ = try await client.lists()
            try await Task.sleep(for: .seconds(3600))  // cancelled below, never waited out
          }
        }
        // Cancel once the session is open.
        _ = await eventually(within: 60) { double.activeSessions == 1 }
        group.cancelAll()
      }
      #expect(double.activeSessions == 0)
    }
  }

  @Test("An expired session is renewed once, transparently")
  func relogin() async throws {
    try await PiholeDouble.with { double in
      try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { client in
        _ = try await client.lists()
        double.expireAllSessions()
        _ = try await client.lists()
      }
      #expect(double.requestLog.filter { $0.method == "POST" && $0.path == "/api/auth" }.count == 2)
      #expect(double.activeSessions == 0)
    }
  }

  @Test("Wrong password, no password set, rate limiting and seats give their own errors")
  func loginErrors() async throws {
    try await PiholeDouble.with { double in
      await #expect(throws: PiholeError.wrongPassword(message: "password incorrect")) {
        try await PiholeClient.withSession(host: try Self.host(double), password: "nope") { _ in }
      }
    }
    try await PiholeDouble.with(.init(password: nil)) { double in
      let lists = try await PiholeClient.withSession(host: try Self.host(double), password: nil) {
        try await $0.lists()
      }
      #expect(lists.isEmpty)
    }
    try await PiholeDouble.with(.init(password: "secret", maxSessions: 1)) { double in
      try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { _ in
        await #expect(throws: PiholeError.seatsExceeded(hint: "increase webserver.api.max_sessions")) {
          try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { _ in }
        }
      }
    }
  }

  @Test("A rate-limited login is tried again twice, a second apart, then reported clearly")
  func rateLimited() async throws {
    try await PiholeDouble.with(.init(password: "secret", loginAttemptsPerSecond: 0)) { double in
      await #expect(throws: PiholeError.rateLimited(message: "Rate-limiting login attempts", hint: nil)) {
        try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { _ in }
      }
      #expect(double.requestLog.filter { $0.method == "POST" && $0.path == "/api/auth" }.count == 3)
    }
  }

  @Test("Gravity streams its log; the stray JSON after it does not break the next request")
  func gravity() async throws {
    try await PiholeDouble.with { double in
      try await PiholeClient.withSession(host: try Self.host(double), password: "secret") { client in
        _ = try await client.addLists(["https://lists.website/a.txt"], comment: nil)
        double.setContents(["x.website", "y.website"], forAddress: "https://lists.website/a.txt")
        let lines = LineCollector()
        try await client.gravity { lines.append($0) }
        #expect(!lines.all.isEmpty)
        #expect(!lines.all.contains { $0.contains("\u{1B}") || $0.hasPrefix("{") })
        let lists = try await client.lists()
        #expect(lists.first?.number == 2)
      }
      #expect(double.gravityRuns == 1)
    }
  }
}

/// Collects lines from a `@Sendable` callback.
final class LineCollector: Sendable {
  private let lines = Locked<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
