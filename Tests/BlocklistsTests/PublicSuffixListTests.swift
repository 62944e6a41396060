import Blocklists
import Testing

@Suite("Public suffixes")
struct PublicSuffixListTests {
  let list = PublicSuffixList.bundled

  @Test("ICANN and private suffixes are known; registrable names are not suffixes")
  func bundled() {
    #expect(list.isPublicSuffix("co.uk"))
    #expect(list.isPublicSuffix("servebbs.net"))
    #expect(list.isPublicSuffix("github.io"))
    #expect(!list.isPublicSuffix("example.co.uk"))
    #expect(!list.isPublicSuffix("ads.example.com"))
  }

  @Test("Wildcard and exception rules")
  func wildcards() {
    let rules = PublicSuffixList(rules: "// comment\n*.ck\n!www.ck\nfoo.bar\n")
    #expect(rules.isPublicSuffix("anything.ck"))
    #expect(!rules.isPublicSuffix("www.ck"))
    #expect(rules.isPublicSuffix("foo.bar"))
    #expect(!rules.isPublicSuffix("x.foo.bar"))
  }

  @Test("Unicode rules are stored as punycode, the form names take")
  func punycode() {
    #expect(list.isPublicSuffix("xn--55qx5d.cn"))  // 公司.cn
  }
}
