import Loading
import Testing

@testable import Updates

@Suite("Source phases as loading states")
struct SourcePhaseLoadingTests {
  @Test("Waiting is idle; each step is loading with its message and share; the end is success or failure")
  func states() throws {
    #expect(SourcePhase.waiting.loadingState.isIdle)
    let download = try #require(SourcePhase.downloading(bytes: 1_200_000, total: 4_000_000).loadingState.progress)
    #expect(download.message == "downloading 1.2 MB (30%)")
    #expect(download.fraction == SourcePhase.downloading(bytes: 1_200_000, total: 4_000_000).fraction)
    #expect(SourcePhase.parsing(lines: 12_345, names: 3).loadingState.progress?.message == "parsing 12,345 entries")
    #expect(SourcePhase.done(.unchanged(.notModified)).loadingState.value == .unchanged(.notModified))
    let failure = SourceFailure(kind: .download, message: "a: gone", suggestion: "Check the URL.")
    let failed = try #require(SourcePhase.done(.failed(failure)).loadingState.error as? SourceFailure)
    #expect(failed == failure)
  }

  @Test("A retry is the Loading library's retrying state, with the attempt about to start, the wait and the reason")
  func retrying() throws {
    let phase = SourcePhase.retrying(attempt: 3, of: 3, after: .milliseconds(2_500), reason: "timeout")
    let progress = try #require(phase.loadingState.progress)
    #expect(progress.isRetrying)
    #expect(progress.retry == LoadingProgress.Retry(attempt: 3, of: 3, after: .milliseconds(2_500), reason: "timeout"))
    #expect(progress.message == "retrying in 2.5 s (attempt 3 of 3): timeout")
  }

  @Test("The share of the work only grows from one phase to the next")
  func monotonic() {
    let phases: [SourcePhase] = [
      .waiting, .connecting(attempt: 1), .downloading(bytes: 0, total: 10), .downloading(bytes: 10, total: 10),
      .parsing(lines: 1, names: 1), .validating, .saving, .done(.updated(names: 1, rejected: 0, bytes: 1)),
    ]
    let fractions = phases.map(\.fraction)
    #expect(fractions == fractions.sorted())
    #expect(fractions.first == 0 && fractions.last == 1)
  }

  @Test(
    "Regression: the run's progress weighs each source by its size (a 10 MB list at 18 % beside three small ones done read 89 %)"
  )
  func overallWeighed() {
    let large = SourcePhase.downloading(bytes: 2_000_000, total: 10_000_000)  // 18 % along
    let small = SourcePhase.done(.updated(names: 100, rejected: 0, bytes: 50_000))
    let overall = SourcePhase.overallFraction([large, small, small, small])
    #expect(overall > 0.15 && overall < 0.25, "\(overall)")
    // Sizes unknown: each counts the same.
    #expect(SourcePhase.overallFraction([.waiting, .done(.unchanged(.notModified))]) == 0.5)
    #expect(SourcePhase.overallFraction([]) == 0)
  }
}
