import Downloads
import Testing

@testable import SaneHostsCLI

@Suite("Errors shown by the command")
struct CLIErrorTests {
  @Test("A named error shows its message and then what to do")
  func messageAndSuggestion() {
    let text = CLIError(DownloadError.httpStatus(url: "https://lists.website/h", code: 404)).description
    #expect(text.hasPrefix("https://lists.website/h answered HTTP 404."))
    #expect(text.contains("\nThe list has moved or been removed"))
  }

  @Test("A problem met while running reads as its message and what to do, without the usage text")
  func commandFailure() {
    let failure = CommandFailure("No blocker tests yet.", suggestion: "Run `sanehosts test`.")
    #expect(failure.description == "No blocker tests yet.\nRun `sanehosts test`.")
    #expect(CommandFailure("Alone.").description == "Alone.")
  }

  @Test("Other errors fall back to their description")
  func plain() {
    struct Odd: Error {}
    #expect(CLIError(Odd()).description.contains("Odd"))
  }
}
