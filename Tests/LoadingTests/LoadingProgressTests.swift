import Foundation
import Loading
import Testing

@Suite
struct LoadingProgressTests {
  @Test(arguments: [
    (-5.0, 0.0), (0, 0), (42.5, 42.5), (100, 100), (150, 100), (-.infinity, 0), (.infinity, 100),
  ])
  func percentIsClampedToZeroThroughHundred(input: Double, expected: Double) {
    #expect(LoadingProgress(percent: input).percent == expected)
  }

  @Test func nanOrMissingPercentBecomesNil() {
    #expect(LoadingProgress(percent: .nan).percent == nil)
    #expect(LoadingProgress().percent == nil)
    #expect(LoadingProgress(fraction: .nan).percent == nil)
  }

  @Test(arguments: [(0.5, 50.0), (0, 0), (1, 100), (2, 100), (-1, 0), (0.125, 12.5)])
  func fractionIsConvertedAndClamped(fraction: Double, expectedPercent: Double) {
    let progress = LoadingProgress(fraction: fraction)
    #expect(progress.percent == expectedPercent)
    #expect(progress.fraction == expectedPercent / 100)
  }

  @Test func keepsMessageAndCancelledFlag() {
    let progress = LoadingProgress(message: "Downloading", percent: 30)
    #expect(progress.message == "Downloading")
    #expect(!progress.isCancelled)
    let cancelled = progress.markingCancelled()
    #expect(cancelled == LoadingProgress(message: "Downloading", percent: 30, isCancelled: true))
    #expect(LoadingProgress(message: "Parsing", fraction: 0.5, isCancelled: true).isCancelled)
  }

  @Test func hashableDistinguishesEveryField() {
    let values: Set<LoadingProgress> = [
      LoadingProgress(),
      LoadingProgress(message: "a"),
      LoadingProgress(percent: 10),
      LoadingProgress(isCancelled: true),
      LoadingProgress(percent: 10),
    ]
    #expect(values.count == 4)
  }

  @Test func roundTripsThroughJSON() throws {
    let progress = LoadingProgress(message: "Step 2", percent: 64, isCancelled: true)
    let data = try JSONEncoder().encode(progress)
    #expect(try JSONDecoder().decode(LoadingProgress.self, from: data) == progress)
  }

  @Test func decodingClampsPercentAndDefaultsCancelledToFalse() throws {
    let json = Data(#"{"percent": 250, "message": "Too far"}"#.utf8)
    let progress = try JSONDecoder().decode(LoadingProgress.self, from: json)
    #expect(progress == LoadingProgress(message: "Too far", percent: 100))
    let empty = try JSONDecoder().decode(LoadingProgress.self, from: Data("{}".utf8))
    #expect(empty == LoadingProgress())
  }
}
