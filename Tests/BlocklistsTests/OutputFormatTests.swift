import Blocklists
import Testing

@Suite("Output formats")
struct OutputFormatTests {
  @Test("Every output is read back as the input format of the same name, covering subdomains alike")
  func readBack() {
    for format in OutputFormat.allCases {
      #expect(InputFormat(format).rawValue == format.rawValue)
      #expect(InputFormat(format).coversSubdomains == format.coversSubdomains)
    }
    #expect(OutputFormat.allCases.filter { !$0.coversSubdomains } == [.hosts, .domains])
  }

  @Test("Each writes comments its readers skip")
  func comments() {
    #expect(OutputFormat.allCases.map(\.commentPrefix) == ["#", "#", "!", "#", "#", "#", ";"])
  }
}
