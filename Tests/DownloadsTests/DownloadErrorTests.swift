import Downloads
import Testing

@Suite("Download error messages")
struct DownloadErrorTests {
  static let all: [DownloadError] = [
    .invalidURL("ht!tp"), .unsupportedScheme(url: "ftp://x/h"), .insecureURL(url: "http://x/h"),
    .unreachableHost(url: "https://x/h", detail: "Connection refused"),
    .timeout(url: "https://x/h", kind: .connect, limit: .seconds(10)),
    .timeout(url: "https://x/h", kind: .idle, limit: .milliseconds(2500)),
    .timeout(url: "https://x/h", kind: .total, limit: .seconds(300)),
    .httpStatus(url: "https://x/h", code: 404), .httpStatus(url: "https://x/h", code: 500),
    .tooLarge(url: "https://x/h", limit: 10, announced: 20), .tooLarge(url: "https://x/h", limit: 10, announced: nil),
    .tooManyRedirects(url: "https://x/h", limit: 5), .redirectLoop(url: "https://x/h"),
    .insecureRedirect(from: "https://x/h", to: "http://y/h"),
    .connectionLost(url: "https://x/h", received: 5, expected: 10), .tls(url: "https://x/h", detail: "expired"),
    .invalidResponse(url: "https://x/h", detail: "unexpected content-length header"),
    .fileNotFound(path: "/x/h"), .fileSystem(path: "/x/h", detail: "No space left on device"),
    .cancelled(url: "https://x/h"), .superseded(url: "https://x/h"), .other(url: "https://x/h", detail: "odd"),
  ]

  @Test("Every error names the URL or path it is about", arguments: all)
  func namesTheSubject(error: DownloadError) throws {
    let message = try #require(error.errorDescription)
    #expect(message.contains("x/h") || message.contains("ht!tp"))
  }

  @Test("Every failure the user can act on says what to do", arguments: all)
  func suggestsRecovery(error: DownloadError) {
    switch error {
    case .cancelled, .superseded: #expect(error.recoverySuggestion == nil)
    default: #expect(error.recoverySuggestion?.isEmpty == false)
    }
  }

  @Test("Limits are shown in seconds people can read")
  func durations() {
    #expect(
      DownloadError.timeout(url: "u", kind: .idle, limit: .milliseconds(2500)).errorDescription
        == "u sent nothing for 2.5 s.")
  }
}
