import Apply
import Foundation
import Store
import Testing

@testable import Dashboard

@Suite("Applying from the dashboard")
struct ApplyServiceTests {
  @Test("Targets by name (none: the hosts file); each target's file is the configured one")
  func targets() async throws {
    #expect(try ApplyService.target(nil) == .hosts)
    #expect(try ApplyService.target("") == .hosts)
    #expect(try ApplyService.target("unbound") == .server(.unbound))
    #expect(throws: DashboardError.self) { try ApplyService.target("nginx") }
    try await DashboardHarness.with { harness in
      let applier = harness.dashboard.applier
      #expect(applier.managedFile(for: .hosts).path == harness.hostsFile.path)
      #expect(applier.managedFile(for: .server(.dnsmasq)).path.hasSuffix("dropins/sanehosts-dnsmasq.conf"))
      #expect(applier.backups(of: .hosts).isEmpty)
    }
  }

  @Test("A preview writes nothing and counts what would change")
  func preview() async throws {
    try await DashboardHarness.with { harness in
      _ = try harness.dashboardStore().addRule("ads.website", action: .deny)
      let before = try Data(contentsOf: harness.hostsFile)
      let view = try await harness.dashboard.applier.apply(APIRequest.Apply(target: "hosts"), dryRun: true)
      #expect(view.result.dryRun && view.diff.contains("+ 0.0.0.0 ads.website") && view.diffOmitted == 0)
      #expect(try Data(contentsOf: harness.hostsFile) == before)
    }
  }
}
