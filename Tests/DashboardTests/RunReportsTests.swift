import BlockerTest
import Foundation
import HTTPTypes
import HummingbirdCore
import Testing

@testable import Dashboard

@Suite("Saved runs for the pages and the API")
struct RunReportsTests {
  @Test("A run id must be a number; an export format must be known")
  func errors() async throws {
    try await DashboardHarness.with { harness in
      let reports = harness.dashboard.reports
      #expect(throws: DashboardError.badRequest("\"x\" is not a run id (a number).")) { try reports.report("x") }
      let report = TestReport(
        id: 3, startedAt: Date(), milliseconds: 1, probe: .dns, target: "t", timeoutMilliseconds: 1, controls: [],
        results: [])
      #expect(throws: DashboardError.self) { try RunReports.export(report, format: "pdf") }
      let text = try RunReports.export(report, format: "text")
      #expect(text.headers[.contentDisposition] == "attachment; filename=\"sanehosts-test-3.txt\"")
    }
  }
}
