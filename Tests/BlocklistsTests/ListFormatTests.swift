import Blocklists
import Testing

@Suite("List formats")
struct ListFormatTests {
  @Test("Only hosts and plain domains block exactly one name per entry")
  func coverage() {
    #expect(ListFormat.allCases.filter { !$0.coversSubdomains } == [.hosts, .domains])
  }

  @Test("Comment syntax per format")
  func comments() {
    #expect(ListFormat.adblock.commentPrefix == "!")
    #expect(ListFormat.rpz.commentPrefix == ";")
    #expect(ListFormat.unbound.commentPrefix == "#")
  }

  @Test("Sources name themselves after their file")
  func sources() {
    #expect(ListSource.file("/tmp/a.txt").name == "/tmp/a.txt")
    #expect(ListSource.text("x", name: "n", format: .adblock).format == .adblock)
  }
}
