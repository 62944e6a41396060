import Loading
import Locking
import Testing

@Suite
struct ProgressReporterTests {
  @Test func handsEveryReportToTheSinkInOrder() {
    let received = Locked<[LoadingProgress]>([])
    let reporter = ProgressReporter { progress in received.withLock { $0.append(progress) } }
    reporter.report(LoadingProgress(message: "Connecting"))
    reporter.report(message: "Downloading", percent: 140)
    reporter.report()
    #expect(
      received.withLock { $0 } == [
        LoadingProgress(message: "Connecting"),
        LoadingProgress(message: "Downloading", percent: 100),
        LoadingProgress(),
      ]
    )
  }
}
