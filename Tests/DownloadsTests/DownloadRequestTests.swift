import Foundation
import Testing

@testable import Downloads

@Suite("Download requests")
struct DownloadRequestTests {
  @Test("Transfers are keyed by URL without the fragment")
  func key() {
    let plain = DownloadRequest(url: URL(string: "https://lists.website/hosts")!)
    let fragment = DownloadRequest(url: URL(string: "https://lists.website/hosts#top")!)
    #expect(plain.key == fragment.key)
    #expect(plain.key != DownloadRequest(url: URL(string: "https://lists.website/hosts?v=2")!).key)
  }

  @Test("Validators are empty until one is set")
  func validators() {
    #expect(Validators().isEmpty)
    #expect(!Validators(etag: "\"a\"").isEmpty)
    #expect(!Validators(lastModified: "Mon, 02 Nov 2026 10:00:00 GMT").isEmpty)
  }
}
