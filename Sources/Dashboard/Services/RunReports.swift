import BlockerTest
import Foundation
import Hummingbird
import Store

/// The saved blocker-test runs as the History pages and the API ask for them: one by id, two to
/// compare, one exported.
struct RunReports: Sendable {
  /// The store holding the history.
  let store: Store

  /// The run with the id given as text (400 when it is not a number, 404 when there is none).
  func report(_ idText: String) throws -> TestReport {
    guard let id = Int64(idText) else { throw DashboardError.badRequest("\"\(idText)\" is not a run id (a number).") }
    return try History(store: store).load(id)
  }

  /// The two runs a request compares (`?from=ID&to=ID`).
  func pair(_ request: Request) throws -> (TestReport, TestReport) {
    let query = request.uri.queryParameters
    guard let from = query["from"].map(String.init), let to = query["to"].map(String.init) else {
      throw DashboardError.badRequest("Give two runs to compare: ?from=ID&to=ID.")
    }
    return (try report(from), try report(to))
  }

  /// A report as a download in `format` (text, json, junit).
  static func export(_ report: TestReport, format: String) throws -> Response {
    guard let format = TestReport.ExportFormat(rawValue: format) else {
      throw DashboardError.badRequest(
        "Unknown export format \"\(format)\": use \(TestReport.ExportFormat.names).")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: "\(format.contentType); charset=utf-8",
        .contentDisposition: "attachment; filename=\"sanehosts-test-\(report.id ?? 0).\(format.fileExtension)\"",
      ],
      body: .init(byteBuffer: ByteBuffer(string: report.exported(as: format))))
  }
}
