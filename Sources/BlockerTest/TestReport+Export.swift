import Files
import Foundation

extension TestReport {
  /// A form a report is exported in: by `test --export` and the dashboard's Test page.
  public enum ExportFormat: String, CaseIterable, Sendable {
    case text, json, junit

    /// The HTTP content type of the form.
    public var contentType: String {
      switch self {
      case .text: "text/plain"
      case .json: "application/json"
      case .junit: "application/xml"
      }
    }

    /// The file name extension of the form.
    public var fileExtension: String {
      switch self {
      case .text: "txt"
      case .json: "json"
      case .junit: "xml"
      }
    }

    /// The forms' names for messages: `text, json or junit`.
    public static let names = "text, json or junit"
  }

  /// The report in `format`: the text report without colour, the JSON of `--json`, or JUnit XML.
  public func exported(as format: ExportFormat) -> String {
    switch format {
    case .text: text()
    case .json: JSONCoding.text(self, pretty: true)
    case .junit: junit()
    }
  }
}
