import Blocklists
import Testing

@Suite("Messages as sentences")
struct StringSentenceTests {
  @Test(
    "Regression: one full stop at the end (a system message read “permission..”), Foundation's empty opening dropped")
  func fullStop() {
    #expect("no such file".sentence == "no such file.")
    #expect("The operation could not be completed. You don’t have permission.".sentence == "You don’t have permission.")
    #expect("what?".sentence == "what?")
  }
}
