import Downloads
import Testing

@Suite("Retry backoff")
struct RetryPolicyTests {
  @Test("Delays grow by the multiplier from the first retry and stop at the maximum")
  func growth() {
    let policy = RetryPolicy(maximumAttempts: 6, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(5))
    #expect(
      (1...5).map { policy.delay(after: $0) } == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
  }

  @Test("A sane Retry-After wins; an absurd one is capped by the policy")
  func retryAfter() {
    let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30))
    #expect(policy.delay(after: 1, retryAfter: .seconds(7)) == .seconds(7))
    #expect(policy.delay(after: 1, retryAfter: .seconds(3600)) == .seconds(1))
  }

  @Test("At least one attempt, whatever the caller asks")
  func minimum() {
    #expect(RetryPolicy(maximumAttempts: 0).maximumAttempts == 1)
  }

  @Test("Only network hiccups and overloaded servers are transient")
  func transient() {
    #expect(DownloadError.httpStatus(url: "u", code: 503).isTransient)
    #expect(DownloadError.httpStatus(url: "u", code: 429).isTransient)
    #expect(!DownloadError.httpStatus(url: "u", code: 404).isTransient)
    #expect(DownloadError.connectionLost(url: "u", received: 1, expected: 2).isTransient)
    #expect(DownloadError.timeout(url: "u", kind: .idle, limit: .seconds(1)).isTransient)
    #expect(!DownloadError.timeout(url: "u", kind: .total, limit: .seconds(1)).isTransient)
    #expect(!DownloadError.tooLarge(url: "u", limit: 1, announced: 2).isTransient)
    #expect(!DownloadError.tls(url: "u", detail: "bad certificate").isTransient)
  }
}
