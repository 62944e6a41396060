import BlockerTest
import DNS
import Dashboard
import Foundation
import NIOCore
import NIOHTTP1
import Store
import TestSupport
import Testing

@Suite("Update and test jobs, live over Server-Sent Events", .serialized)
struct DashboardJobsTests {
  static let hostsList =
    "# <script>alert(1)</script>\n0.0.0.0 ads.website\n0.0.0.0 tracker.website\n127.0.0.1 localhost\n"
  static let domainsList = "metrics.website\nbeacon.website\n\"><img src=x onerror=alert(1)>.website\n"

  /// A list big enough to take a while when trickled: about 1.2 MB.
  static let slowList = (0..<60_000).map { "slow\($0).website\n" }.joined()

  @Test("Update: per-source phases arrive live, the run finishes, the names are counted; a second start is refused")
  func update() async throws {
    try await FixtureServer.with { lists in
      lists.route("/ads.txt", .resource(.init(Self.hostsList, etag: "\"a1\"")))
      lists.route("/trackers.txt", .resource(.init(Self.domainsList)))
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          for (key, path) in [("ads", "/ads.txt"), ("trackers", "/trackers.txt")] {
            let added = try await client.request(
              "/api/sources", method: .POST, json: #"{"url":"\#(lists.url(path))","key":"\#(key)"}"#, csrf: true)
            #expect(added.status == 201, "\(added.body)")
          }
          let started = try await client.request("/api/update", method: .POST, json: "{}", csrf: true)
          #expect(started.status == 202, "\(started.body)")
          let statuses = try await client.events("/api/update/events") { ($0["state"] as? String) != "running" }
          let last = try #require(statuses.last)
          #expect(last["state"] as? String == "finished", "\(last)")
          #expect(last["names"] as? Int == 4)
          #expect(last["updated"] as? Int == 2)
          let rows = last["sources"] as? [[String: Any]] ?? []
          #expect(rows.map { $0["phase"] as? String } == ["updated", "updated"])
          #expect((rows.last?["detail"] as? String)?.contains("1 rejected") == true)
          let status = try await client.request("/api/status")
          #expect(status.json?["names"] as? Int == 4)

          // Again: both sources unchanged (one by ETag), nothing recompiled.
          #expect(try await client.request("/api/update", method: .POST, json: "{}", csrf: true).status == 202)
          let again = try await client.events("/api/update/events") { ($0["state"] as? String) != "running" }
          #expect(again.last?["unchanged"] as? Int == 2)
        }
      }
    }
  }

  @Test(
    "Cancel in the middle of a download: state cancelled, the store and its files exactly as before; replay on reconnect"
  )
  func cancel() async throws {
    try await FixtureServer.with { lists in
      lists.route("/ads.txt", .resource(.init(Self.hostsList)))
      lists.route("/slow.txt", .trickle(body: Array(Self.slowList.utf8), chunk: 4096, interval: .milliseconds(50)))
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          _ = try await client.request(
            "/api/sources", method: .POST, json: #"{"url":"\#(lists.url("/ads.txt"))","key":"ads"}"#, csrf: true)
          #expect(try await client.request("/api/update", method: .POST, json: "{}", csrf: true).status == 202)
          _ = try await client.events("/api/update/events") { ($0["state"] as? String) != "running" }
          let store = try harness.dashboardStore()
          let before = try store.allSources().map { [$0.key, $0.sha256 ?? "", $0.cacheFile ?? ""] }
          let filesBefore = try FileManager.default.contentsOfDirectory(atPath: harness.data.lists.path).sorted()

          _ = try await client.request(
            "/api/sources", method: .POST, json: #"{"url":"\#(lists.url("/slow.txt"))","key":"slow"}"#, csrf: true)
          #expect(
            try await client.request("/api/update", method: .POST, json: "{\"force\":true}", csrf: true).status == 202)
          _ = try await client.events("/api/update/events") { status in
            let rows = status["sources"] as? [[String: Any]] ?? []
            return rows.contains { $0["key"] as? String == "slow" && $0["phase"] as? String == "downloading" }
          }
          #expect(try await client.request("/api/update", method: .POST, json: "{}", csrf: true).status == 409)
          // A page that opens now sees the run where it is, at once.
          let replay = try await client.events("/api/update/events") { _ in true }
          #expect(replay.first?["state"] as? String == "running")
          #expect((replay.first?["sources"] as? [[String: Any]])?.count == 2)

          let cancelled = try await client.request("/api/update/cancel", method: .POST, json: "{}", csrf: true)
          #expect(cancelled.json?["cancelled"] as? Bool == true)
          let end = try await client.events("/api/update/events") { ($0["state"] as? String) != "running" }
          #expect(end.last?["state"] as? String == "cancelled")
          let slowRow = (end.last?["sources"] as? [[String: Any]])?.first { $0["key"] as? String == "slow" }
          #expect(slowRow?["phase"] as? String == "cancelled")
          #expect(
            try store.allSources().filter { $0.key == "ads" }.map { [$0.key, $0.sha256 ?? "", $0.cacheFile ?? ""] }
              == before)
          #expect(try store.allSources().first { $0.key == "slow" }?.cacheFile == nil)
          #expect(try FileManager.default.contentsOfDirectory(atPath: harness.data.lists.path).sorted() == filesBefore)
          let staging = (try? FileManager.default.contentsOfDirectory(atPath: harness.data.staging.path)) ?? []
          #expect(
            await eventually(within: 30) {
              ((try? FileManager.default.contentsOfDirectory(atPath: harness.data.staging.path)) ?? []).isEmpty
            }, "\(staging)")
          #expect(
            try await client.request("/api/update/cancel", method: .POST, json: "{}", csrf: true).json?["cancelled"]
              as? Bool == false)
        }
      }
    }
  }

  @Test("Cancel one source: it ends cancelled with its previous copy, the run goes on and finishes")
  func cancelOneSource() async throws {
    try await FixtureServer.with { lists in
      lists.route("/ads.txt", .resource(.init(Self.hostsList)))
      lists.route("/slow.txt", .trickle(body: Array(Self.slowList.utf8), chunk: 4096, interval: .milliseconds(50)))
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          for key in ["ads", "slow"] {
            let url = lists.url("/\(key).txt")
            _ = try await client.request(
              "/api/sources", method: .POST, json: #"{"url":"\#(url)","key":"\#(key)"}"#, csrf: true)
          }
          // No run yet: no such row.
          #expect(
            try await client.request("/api/update/sources/slow/cancel", method: .POST, json: "{}", csrf: true).status
              == 404)
          #expect(try await client.request("/api/update", method: .POST, json: "{}", csrf: true).status == 202)
          _ = try await client.events("/api/update/events") { status in
            let rows = status["sources"] as? [[String: Any]] ?? []
            return rows.contains { $0["key"] as? String == "slow" && $0["phase"] as? String == "downloading" }
              && rows.contains { $0["key"] as? String == "ads" && $0["phase"] as? String == "updated" }
          }
          let unknown = try await client.request(
            "/api/update/sources/nosuch/cancel", method: .POST, json: "{}", csrf: true)
          #expect(unknown.status == 404)
          let cancelled = try await client.request(
            "/api/update/sources/slow/cancel", method: .POST, json: "{}", csrf: true)
          #expect(cancelled.json?["cancelled"] as? Bool == true)
          let end = try await client.events("/api/update/events") { ($0["state"] as? String) != "running" }
          let last = try #require(end.last)
          #expect(last["state"] as? String == "finished", "the run goes on: \(last)")
          let rows = last["sources"] as? [[String: Any]] ?? []
          #expect(rows.first { $0["key"] as? String == "slow" }?["phase"] as? String == "cancelled")
          #expect(rows.first { $0["key"] as? String == "ads" }?["phase"] as? String == "updated")
          #expect(last["updated"] as? Int == 1)
          let store = try harness.dashboardStore()
          #expect(try store.allSources().first { $0.key == "slow" }?.cacheFile == nil)
          #expect(try store.allSources().first { $0.key == "ads" }?.cacheFile != nil)
          // Ended: cancelling again does nothing.
          let again = try await client.request(
            "/api/update/sources/slow/cancel", method: .POST, json: "{}", csrf: true)
          #expect(again.json?["cancelled"] as? Bool == false)
        }
      }
    }
  }

  @Test("A running update is cancelled cleanly when the server shuts down")
  func shutdownDuringUpdate() async throws {
    try await FixtureServer.with { lists in
      lists.route("/slow.txt", .trickle(body: Array(Self.slowList.utf8), chunk: 2048, interval: .milliseconds(100)))
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          _ = try await client.request(
            "/api/sources", method: .POST, json: #"{"url":"\#(lists.url("/slow.txt"))","key":"slow"}"#, csrf: true)
          #expect(try await client.request("/api/update", method: .POST, json: "{}", csrf: true).status == 202)
          _ = try await client.events("/api/update/events") { status in
            ((status["sources"] as? [[String: Any]]) ?? []).contains { $0["phase"] as? String == "downloading" }
          }
        }
        // The harness shut the server down gracefully; the update ended without saving anything.
        let source = try harness.dashboardStore().allSources().first
        #expect(source?.cacheFile == nil)
        #expect(try harness.dashboardStore().runs().isEmpty)
      }
    }
  }

  /// Ads resolve to 0.0.0.0, everything else to a routable address.
  static func adsBlocked(_ request: FakeDNSServer.Request) -> [FakeDNSServer.Reply] {
    guard let question = request.message?.questions.first else { return [] }
    let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
    let ads = Set(Registry.builtIn.domains.filter { $0.category == "Ads" }.map(\.hostname))
    let address = ads.contains(name) ? "0.0.0.0" : "93.184.216.34"
    let answers: [Record] =
      question.type == .a ? [Record(name: question.name, data: .a(IPv4Address(address)!))] : []
    return [.bytes(FakeDNSServer.response(to: request, answers: answers))]
  }

  @Test("Test: probe a DNS server live, get a saved run whose Ads category is exactly the blocked one")
  func blockerTest() async throws {
    try await FakeDNSServer.with(Self.adsBlocked) { dns in
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          let bad = try await client.request(
            "/api/test", method: .POST, json: #"{"probe":"dns","resolver":"not-an-ip"}"#, csrf: true)
          #expect(bad.status == 400 && bad.body.contains("not-an-ip"))
          let noCategory = try await client.request(
            "/api/test", method: .POST,
            json: #"{"probe":"dns","resolver":"127.0.0.1:\#(dns.port)","category":["Nope"]}"#,
            csrf: true)
          #expect(noCategory.status == 400 && noCategory.body.contains("Nope"))

          let started = try await client.request(
            "/api/test", method: .POST, json: #"{"probe":"dns","resolver":"127.0.0.1:\#(dns.port)","timeout":2}"#,
            csrf: true)
          #expect(started.status == 202, "\(started.body)")
          let statuses = try await client.events("/api/test/events") { ($0["state"] as? String) != "running" }
          let last = try #require(statuses.last)
          #expect(last["state"] as? String == "finished", "\(last)")
          let ads = Registry.builtIn.domains.filter { $0.category == "Ads" }.count
          let tested = Registry.builtIn.domains.filter { !$0.isControl }.count
          #expect(last["blocked"] as? Int == ads)
          #expect(last["done"] as? Int == tested)
          let id = try #require(last["runID"] as? Int)

          let history = try await client.request("/api/history")
          #expect(history.body.contains("\"id\":\(id)"))
          let report = try await client.request("/api/history/\(id)")
          let categories = try #require(
            (try JSONSerialization.jsonObject(with: Data(report.body.utf8)) as? [String: Any])?["results"]
              as? [[String: Any]])
          #expect(categories.filter { $0["outcome"] as? String == "blocked" }.count == ads)
          let text = try await client.request("/api/history/\(id)/export?format=text")
          #expect(text.status == 200 && text.headers.first(name: "Content-Disposition")?.contains("attachment") == true)
          #expect(try await client.request("/api/history/\(id)/export?format=junit").body.contains("<testsuite"))
          #expect(try await client.request("/api/history/\(id)/export?format=pdf").status == 400)
          let page = try await client.request("/test")
          #expect(page.body.contains("data-category=\"Ads\""))
        }
      }
    }
  }

  @Test("Cancel a test against a black hole: cancelled, nothing saved")
  func cancelTest() async throws {
    try await FakeDNSServer.with({ _ in [] }) { dns in
      try await DashboardHarness.with { harness in
        try await harness.live { client async throws in
          let started = try await client.request(
            "/api/test", method: .POST, json: #"{"probe":"dns","resolver":"127.0.0.1:\#(dns.port)","timeout":30}"#,
            csrf: true)
          #expect(started.status == 202)
          #expect(try await client.request("/api/test/cancel", method: .POST, json: "{}", csrf: true).status == 200)
          let end = try await client.events("/api/test/events") { ($0["state"] as? String) != "running" }
          #expect(end.last?["state"] as? String == "cancelled")
          #expect(try await client.request("/api/history").body == "[]")
        }
      }
    }
  }
}
