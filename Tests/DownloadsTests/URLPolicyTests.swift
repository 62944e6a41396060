import Downloads
import Foundation
import Testing

@Suite("Which URLs may be fetched")
struct URLPolicyTests {
  @Test(
    "https anywhere, http only on this machine, and local files",
    arguments: [
      ("https://example.com/hosts", true),
      ("http://127.0.0.1:8080/hosts", true),
      ("http://127.8.9.10/hosts", true),
      ("http://localhost/hosts", true),
      ("http://[::1]:80/hosts", true),
      ("file:///tmp/hosts", true),
      ("http://example.com/hosts", false),
      ("http://127.0.0.1.evil.website/hosts", false),
      ("http://10.0.0.1/hosts", false),
      ("ftp://example.com/hosts", false),
      ("https:///nohost", false),
    ])
  func schemes(url: String, allowed: Bool) throws {
    let result = Result { () throws(DownloadError) in try URLPolicy.check(URL(string: url)!) }
    let accepted = (try? result.get()) != nil
    #expect(accepted == allowed, "\(url)")
  }

  @Test("Plain http to another machine is named as insecure with a suggestion")
  func insecure() {
    #expect(throws: DownloadError.insecureURL(url: "http://example.com/hosts")) {
      try URLPolicy.check(URL(string: "http://example.com/hosts")!)
    }
    let error = DownloadError.insecureURL(url: "http://example.com/hosts")
    #expect(error.errorDescription?.contains("http://example.com/hosts") == true)
    #expect(error.recoverySuggestion?.contains("https://") == true)
  }

  @Test("Redirects may not leave https or reach local files")
  func redirects() throws {
    let https = URL(string: "https://lists.website/hosts")!
    #expect(throws: DownloadError.self) {
      try URLPolicy.checkRedirect(from: https, to: URL(string: "http://lists.website/h")!)
    }
    #expect(throws: DownloadError.self) {
      try URLPolicy.checkRedirect(from: https, to: URL(string: "file:///etc/hosts")!)
    }
    try URLPolicy.checkRedirect(from: https, to: URL(string: "https://cdn.website/hosts")!)
    let local = URL(string: "http://127.0.0.1:9/a")!
    try URLPolicy.checkRedirect(from: local, to: URL(string: "http://127.0.0.1:9/b")!)
  }

  @Test("Credentials are removed from URLs shown to people")
  func redaction() {
    #expect(URLPolicy.redacted(URL(string: "https://me:pw@lists.website/h?x=1")!) == "https://lists.website/h?x=1")
    #expect(URLPolicy.redacted(URL(string: "https://lists.website/h")!) == "https://lists.website/h")
  }
}
