import Testing

@testable import Blocklists

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

  @Test("Lines as the list writes them: CRLF, spaces around, blank lines and comments, a bare `*.`")
  func lineForms() {
    let rules = PublicSuffixList(rules: "\u{20}com.zz \r\n\r\n\t// *.skipped\r\n*.yy\r\n  !ok.yy\n*.\nlast.xx")
    #expect(rules.isPublicSuffix("com.zz"))
    #expect(!rules.isPublicSuffix("x.skipped"))
    #expect(rules.isPublicSuffix("any.yy") && !rules.isPublicSuffix("ok.yy"))
    #expect(rules.isPublicSuffix("last.xx"))
    // The fast check on bytes agrees with the one on text.
    for name in ["com.zz", "any.yy", "ok.yy", "last.xx", "other.website"] {
      var bytes = Array(name.utf8)
      let fast = bytes.withUnsafeMutableBufferPointer {
        rules.isPublicSuffix(UnsafeBufferPointer($0), hash: NameHash.hash(UnsafeBufferPointer($0)))
      }
      #expect(fast == rules.isPublicSuffix(name), "\(name)")
    }
  }

  @Test("Unicode rules are stored as punycode, the form names take")
  func punycode() {
    #expect(list.isPublicSuffix("xn--55qx5d.cn"))  // 公司.cn
  }
}
