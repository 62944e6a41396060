import DNS
import Downloads
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Store
import TestSupport
import Testing
import Updates

@testable import Dashboard
@testable import UseCases

@Suite("The Fleet page")
struct FleetPageControllerTests {
  @Test("The replicas as last verified; no replica says how to add one; a checked table shows each verdict and why")
  func render() {
    let renderer = PageRenderer(csrf: "c")
    let none = renderer.html("fleet", model: FleetPageController.Page(replicas: [], now: Date()))
    #expect(none.contains("sanehosts fleet add NAME") && !none.contains("<table") && !none.contains("Check now"))
    let stored = renderer.html(
      "fleet",
      model: FleetPageController.Page(
        replicas: [Replica(id: 1, profileID: 1, name: "upstairs", feed: .pihole, pihole: "pi.hole")], now: Date()))
    #expect(stored.contains("<tr data-replica=\"upstairs\">") && stored.contains("never verified"))
    #expect(
      stored.contains("<form method=\"post\" action=\"/fleet\"><input type=\"hidden\" name=\"csrf\" value=\"c\">"))
    let checked = renderer.html(
      "fleet",
      model: FleetPageController.Page(checked: [
        ReplicaReport(
          name: "bind2", feed: .transfer, address: "10.0.0.3", verdict: .verified, serves: "sanehosts.rpz serial 7",
          detail: "verified: 20/20 sampled names blocked, controls reachable"),
        ReplicaReport(
          name: "unbound2", feed: .transfer, address: "10.0.0.4", verdict: .differs, serves: "answers",
          behind: "last verified yesterday", detail: "verification failed: 18/20 sampled names blocked"),
      ]))
    #expect(checked.contains("1 of 2 replicas verified by their own answers."))
    #expect(checked.contains("<td data-label=\"Verdict\" class=\"error\">differs</td>"))
    #expect(checked.contains("verification failed: 18/20") && checked.contains("last verified yesterday"))
  }

  @Test("GET /fleet lists the profile's replicas; POST /fleet checks them by their answers and records the verdict")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      try await FreePort.withClosedPort { port in
        let store = try Store.open(harness.data)
        let list = harness.directory.file("list.txt")
        try Data("0.0.0.0 ads.website\n".utf8).write(to: list)
        try store.addSource(NewSource(location: list, key: "list"))
        _ = try await DownloadManager.withManager(
          configuration: DownloadConfiguration(temporaryDirectory: store.directory.staging)
        ) { manager in try await Updater(store: store, client: manager).update() }
        try store.addReplica(.init(name: "attic", feed: .verifiedOnly, resolver: "127.0.0.1:\(port)"))
        try await harness.routes { client in
          let page = try await client.get("/fleet")
          #expect(page.status == .ok && page.text.contains("<tr data-replica=\"attic\">"))
          #expect(page.text.contains("href=\"/fleet\""), "the navigation has the page")
          let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
          let checked = try await client.execute(
            uri: "/fleet", method: .post, headers: form, body: ByteBuffer(string: "csrf=\(harness.dashboard.csrfToken)")
          )
          #expect(checked.status == .ok, "\(checked.text)")
          #expect(checked.text.contains("0 of 1 replicas verified") && checked.text.contains("unreachable"))
          let refused = try await client.execute(
            uri: "/fleet", method: .post, headers: form, body: ByteBuffer(string: ""))
          #expect(refused.status == .forbidden, "a POST without the CSRF token is refused")
        }
      }
    }
  }
}
