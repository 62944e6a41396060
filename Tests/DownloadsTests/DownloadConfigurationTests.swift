import Downloads
import Testing

@Suite("Download configuration")
struct DownloadConfigurationTests {
  @Test("Defaults suit public blocklists: bounded in time and size, progress at most 10 a second")
  func defaults() {
    let configuration = DownloadConfiguration()
    #expect(configuration.connectTimeout == .seconds(5))
    #expect(configuration.totalTimeout == .seconds(300))
    #expect(configuration.maximumBytes == 512 * 1024 * 1024)
    #expect(configuration.maximumRedirects == 5)
    #expect(configuration.retry.maximumAttempts == 3)
    #expect(configuration.progressInterval == .milliseconds(100))
  }
}
