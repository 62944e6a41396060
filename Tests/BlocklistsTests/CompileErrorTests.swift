import Blocklists
import Testing

@Suite("Compile errors")
struct CompileErrorTests {
  @Test(
    "Every error names what it is about and says what to do",
    arguments: [
      CompileError.unreadable(path: "/x/list.txt", detail: "Permission denied"), .isDirectory(path: "/x/list.txt"),
      .invalidRule(file: "/x/list.txt", line: 3, text: "a..b", reason: "is not a name (empty label)"),
      .unwritable(path: "/x/list.txt", detail: "No space left on device"),
    ])
  func messages(error: CompileError) {
    #expect(error.errorDescription?.contains("/x/list.txt") == true)
    #expect(error.recoverySuggestion?.isEmpty == false)
  }
}
