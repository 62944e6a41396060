import BlockerTest
import Foundation
import Testing

@Suite("Exported blocker test reports")
struct TestReportExportTests {
  @Test("Each form is the report as that form writes it, with its content type and file extension")
  func forms() throws {
    let original = report(["ads.website": .blocked, "stats.website": .reachable], id: 9)
    #expect(original.exported(as: .text) == original.text())
    #expect(original.exported(as: .junit) == original.junit())
    let json = original.exported(as: .json)
    #expect(json.hasSuffix("}\n") && json.contains("\n  \"categories\""))
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(TestReport.self, from: Data(json.utf8)) == original)
    #expect(TestReport.ExportFormat.allCases.map(\.fileExtension) == ["txt", "json", "xml"])
    #expect(TestReport.ExportFormat.junit.contentType == "application/xml")
    #expect(TestReport.ExportFormat.names == "text, json or junit")
    #expect(TestReport.ExportFormat(rawValue: "html") == nil)
  }
}
