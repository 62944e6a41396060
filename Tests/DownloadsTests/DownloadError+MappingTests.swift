import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Testing

@testable import Downloads

@Suite("Naming errors from the HTTP stack")
struct DownloadErrorMappingTests {
  let configuration = DownloadConfiguration()

  func mapped(_ error: any Error) -> DownloadError {
    DownloadError(error, url: "https://x/h", configuration: configuration, received: 7)
  }

  @Test("Client timeouts map to the limit that ran out")
  func timeouts() {
    #expect(mapped(HTTPClientError.connectTimeout) == .timeout(url: "https://x/h", kind: .connect, limit: .seconds(5)))
    #expect(mapped(HTTPClientError.readTimeout) == .timeout(url: "https://x/h", kind: .idle, limit: .seconds(30)))
    #expect(
      mapped(HTTPClientError.deadlineExceeded) == .timeout(url: "https://x/h", kind: .total, limit: .seconds(300)))
  }

  @Test("Dropped connections keep the byte count; cancellation stays cancellation")
  func drops() {
    #expect(
      mapped(HTTPClientError.remoteConnectionClosed) == .connectionLost(url: "https://x/h", received: 7, expected: nil))
    #expect(mapped(HTTPParserError.invalidEOFState) == .connectionLost(url: "https://x/h", received: 7, expected: nil))
    #expect(mapped(CancellationError()) == .cancelled(url: "https://x/h"))
    #expect(mapped(DownloadError.redirectLoop(url: "https://x/h")) == .redirectLoop(url: "https://x/h"))
  }

  @Test("Malformed HTTP is named as such and not retried; only an early end counts as a lost connection")
  func malformed() {
    for error in [HTTPParserError.invalidContentLength, .unexpectedContentLength, .invalidConstant] {
      let download = mapped(error)
      guard case .invalidResponse(let url, let detail) = download else {
        Issue.record("\(error) mapped to \(download)")
        continue
      }
      #expect(url == "https://x/h")
      #expect(!detail.isEmpty)
      #expect(!download.isTransient)
    }
  }

  @Test("Refused connections are unreachable hosts")
  func refused() {
    let error = mapped(IOError(errnoCode: 111, reason: "connect"))
    #expect(error == .unreachableHost(url: "https://x/h", detail: "Connection refused"))
  }
}
