import Blocklists
import Foundation
import Testing

@Suite("The date a list gives itself")
struct ListDateTests {
  static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @Test(
    "Header lines in the forms real lists write",
    arguments: [
      ("# Last modified: So 24. Jul 12:25:34 UTC 2022\n", "2022-07-24T12:25:34Z"),
      ("# Version: 2022.0724.122534\n", "2022-07-24T12:25:34Z"),
      ("! Last modified: 02 Jan 2024 03:04 UTC\n", "2024-01-02T03:04:00Z"),
      ("# Date: 2024-01-02\n", "2024-01-02T00:00:00Z"),
      ("# Updated: 2024-01-02T03:04:05Z\n", "2024-01-02T03:04:05Z"),
      ("# Date: 24 July 2022 08:00:12 (UTC)\n", "2022-07-24T08:00:12Z"),
      ("# Last updated: January 2, 2024\n", "2024-01-02T00:00:00Z"),
      (
        "\u{FEFF}[Adblock Plus 2.0]\n! Title: x\n! Last modified: Tue, 02 Jan 2024 03:04:05 GMT\n",
        "2024-01-02T03:04:05Z"
      ),
      // The forms' edges, as the regular expressions this scanner replaced read them.
      ("# Version: 202207241225\n", "2022-07-24T12:25:00Z"),
      ("# Version: 20220724\n", "2022-07-24T00:00:00Z"),
      ("# Date: 12024-01-02\n", "2024-01-02T00:00:00Z"),
      ("# Date: 2024-01-02 3:04\n", "2024-01-02T00:00:00Z"),
      ("# Last modified: 7 Mär. 2024 9:05 CET\n", "2024-03-07T09:05:00Z"),
      ("# Last modified: 7. Mär 9:05 CET 2024\n", "2024-03-07T09:05:00Z"),
      ("# Updated: Dec. 31, 2023\n", "2023-12-31T00:00:00Z"),
    ])
  func forms(header: String, expected: String) {
    #expect(ListDate.find(in: Array((header + "0.0.0.0 a.website\n").utf8)) == Self.utc(expected))
  }

  @Test("No date: placeholders, other keys, dates after the first entry, impossible or future dates")
  func none() {
    let now = Self.utc("2026-11-25T00:00:00Z")
    for text in [
      "! Last modified: %timestamp%\n", "# Expires: 2024-01-02\n", "0.0.0.0 a.website\n# Date: 2024-01-02\n",
      "# Date: 2024-02-31\n", "# Date: 2031-01-01\n", "# Version: 1.2.3\n", "",
      "# Version: 20220724a\n", "# Version: 2022.0724.1225345\n", "# Updated: 24 Foo 2022\n",
      "# Updated: Septembers 2, 2024\n", "# Date: 24 Jul\n",
      // The first form a value has decides, even with an impossible date (month 20, then 24).
      "# Version: 20242024  Jul 2022\n", "# Version: 20220724122507-24-2024-01-02\n",
    ] {
      #expect(ListDate.find(in: Array(text.utf8), now: now) == nil, "\(text)")
    }
  }
}
