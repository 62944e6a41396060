import Pihole
import Testing

@Suite("Pi-hole hosts")
struct PiholeHostTests {
  @Test(
    "What users type becomes one API base URL",
    arguments: [
      ("pi.hole", "http://pi.hole/api"), ("192.168.1.2", "http://192.168.1.2/api"),
      ("192.168.1.2:8080", "http://192.168.1.2:8080/api"), ("http://pi.hole/admin", "http://pi.hole/api"),
      ("http://pi.hole/admin/", "http://pi.hole/api"), ("https://Pi.Hole/api/", "https://pi.hole/api"),
      ("http://pi.hole/api", "http://pi.hole/api"), ("[fd00::2]", "http://[fd00::2]/api"),
      ("https://[fd00::2]:8443/admin", "https://[fd00::2]:8443/api"),
    ])
  func normalised(input: String, expected: String) throws {
    #expect(try PiholeHost(input).apiBase == expected)
  }

  @Test(
    "Nonsense is refused with the text named",
    arguments: ["", "ftp://pi.hole", "pi.hole/other", "pi.hole:0", "pi.hole:abc", "[fd00::2"])
  func refused(input: String) {
    #expect(throws: PiholeError.invalidHost(input)) { try PiholeHost(input) }
  }
}
