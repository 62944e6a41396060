import Downloads
import Foundation
import Testing

@Suite("Download events")
struct DownloadEventTests {
  @Test("The fraction is known only with a positive total, and stays in 0…1")
  func fraction() {
    #expect(DownloadProgress(bytesReceived: 5, totalBytes: 10).fraction == 0.5)
    #expect(DownloadProgress(bytesReceived: 20, totalBytes: 10).fraction == 1)
    #expect(DownloadProgress(bytesReceived: 5, totalBytes: nil).isIndeterminate)
    #expect(DownloadProgress(bytesReceived: 5, totalBytes: 0).isIndeterminate)
  }

  @Test("Exactly the completed, notModified and failed events end a stream")
  func terminal() {
    let url = URL(string: "https://lists.website/hosts")!
    let done = CompletedDownload(
      fileURL: url, finalURL: url, statusCode: 200, etag: "\"a\"", lastModified: nil, byteCount: 1,
      sha256: "", attempts: 1)
    #expect(DownloadEvent.completed(done).isTerminal)
    #expect(DownloadEvent.notModified(NotModified(finalURL: url, validators: Validators())).isTerminal)
    #expect(DownloadEvent.failed(.cancelled(url: "u")).isTerminal)
    #expect(!DownloadEvent.connecting(attempt: 1).isTerminal)
    #expect(!DownloadEvent.progress(DownloadProgress(bytesReceived: 0, totalBytes: nil)).isTerminal)
    #expect(done.validators == Validators(etag: "\"a\""))
  }
}
