import Loading
import Testing

@Suite
struct LoadingProgressRetryingTests {
  @Test func retryingProgressNamesTheAttemptAboutToStart() {
    let progress = LoadingProgress.retrying(attempt: 2, of: 3)
    #expect(progress.message == "Retrying\u{2026} (attempt 2 of 3)")
    #expect(progress.percent == nil)
    #expect(!progress.isCancelled)
  }

  @Test func usesTheRealEllipsisCharacter() throws {
    let message = try #require(LoadingProgress.retrying(attempt: 3, of: 5).message)
    #expect(message.contains("\u{2026}"))
    #expect(!message.contains("..."))
    #expect(message == "Retrying… (attempt 3 of 5)")
  }
}
