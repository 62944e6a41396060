import Foundation
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

@Suite("Retrying with a delay and a reason")
struct LoadingProgressRetryDelayTests {
  @Test(
    "The wait reads in seconds with one decimal, or in milliseconds under a second",
    arguments: [
      (Duration.seconds(2), "retrying in 2 s (attempt 2 of 3): timeout"),
      (.milliseconds(2_500), "retrying in 2.5 s (attempt 2 of 3): timeout"),
      (.milliseconds(250), "retrying in 250 ms (attempt 2 of 3): timeout"),
      // Regression: a mirror tried at once read "retrying in 0 ms".
      (.zero, "attempt 2 of 3: timeout"),
    ])
  func text(delay: Duration, expected: String) {
    let progress = LoadingProgress.retrying(attempt: 2, of: 3, after: delay, reason: "timeout")
    #expect(progress.message == expected)
    #expect(progress.isRetrying && progress.retry?.attempt == 2 && progress.retry?.maximumAttempts == 3)
    #expect(progress.retry?.delay == delay)
  }

  @Test("The retry survives cancelling and JSON; plain progress has none")
  func kept() throws {
    let progress = LoadingProgress.retrying(attempt: 3, of: 3, after: .seconds(4), reason: "HTTP 503")
    #expect(progress.markingCancelled().retry == progress.retry)
    let decoded = try JSONDecoder().decode(LoadingProgress.self, from: JSONEncoder().encode(progress))
    #expect(decoded == progress)
    #expect(!LoadingProgress(message: "x").isRetrying)
    let old = try JSONDecoder().decode(LoadingProgress.self, from: Data(#"{"message":"x"}"#.utf8))
    #expect(old.retry == nil)
  }
}
