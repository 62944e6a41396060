import Foundation
import Store
import Testing
import Updates

@testable import Dashboard

@Suite("Update status")
struct UpdateStatusTests {
  @Test(
    "Each phase reads as the CLI says it",
    arguments: [
      (SourcePhase.waiting, "waiting", "waiting"),
      (.connecting(attempt: 1), "connecting", "connecting"),
      (.connecting(attempt: 2), "connecting", "connecting (attempt 2)"),
      (.downloading(bytes: 1_200_000, total: 4_000_000), "downloading", "downloading 1.2 MB (30%)"),
      (.downloading(bytes: 500_000, total: nil), "downloading", "downloading 0.5 MB"),
      (
        .retrying(attempt: 2, of: 3, after: .seconds(2), reason: "timeout"), "retrying",
        "retrying in 2 s (attempt 2 of 3): timeout"
      ),
      (.parsing(lines: 12_345, names: 10), "parsing", "parsing 12,345 entries"),
      (.validating, "validating", "validating"),
      (.saving, "saving", "saving"),
      (.done(.updated(names: 1234, rejected: 2, bytes: 9)), "updated", "updated: 1,234 names, 2 rejected"),
      (.done(.unchanged(.notModified)), "unchanged", "unchanged"),
      (
        .done(.failed(SourceFailure(kind: .notAList, message: "It is a web page.", suggestion: "Check the URL."))),
        "failed", "failed: It is a web page. Check the URL."
      ),
      (
        .done(
          .failed(SourceFailure(kind: .cancelled, message: "k: cancelled.", suggestion: "The previous copy is kept."))),
        "cancelled", "cancelled; the previous copy is kept"
      ),
      (
        .done(.failed(SourceFailure(kind: .cancelled, message: "k: cancelled.", suggestion: nil))), "cancelled",
        "cancelled"
      ),
    ])
  func phases(phase: SourcePhase, word: String, detail: String) {
    let row = UpdateStatus.row(key: "k", phase)
    #expect(row.phase == word)
    #expect(row.detail == detail)
    #expect((0...1).contains(row.fraction))
  }

  @Test("A failed source's bar is empty (a full one reads as done) and its detail does not repeat its key")
  func failedRow() {
    let failure = SourceFailure(kind: .download, message: "gone: https://x/l answered HTTP 404.", suggestion: nil)
    let row = UpdateStatus.row(key: "gone", .done(.failed(failure)))
    #expect(row.fraction == 0 && row.isFinished)
    #expect(row.detail == "failed: https://x/l answered HTTP 404.")
    #expect(UpdateStatus.row(key: "a", .done(.updated(names: 1, rejected: 0, bytes: 1))).fraction == 1)
    #expect(!UpdateStatus.row(key: "a", .saving).isFinished)
  }

  @Test("Events move the rows; the progress only grows through the phases")
  func events() {
    var status = UpdateStatus(state: .running)
    let source = Source(id: 1, key: "a", name: "A", location: "http://x/a")
    status.apply(.started(profile: Profile(id: 1, name: "p"), sources: [source]))
    #expect(status.profile == "p" && status.sources.map(\.key) == ["a"])
    var last = -1.0
    for phase: SourcePhase in [
      .connecting(attempt: 1), .downloading(bytes: 1, total: 2), .parsing(lines: 1, names: 1), .validating, .saving,
      .done(.unchanged(.sameContent)),
    ] {
      status.apply(.source(key: "a", phase))
      #expect(status.sources[0].fraction > last)
      last = status.sources[0].fraction
    }
    status.apply(.source(key: "unknown", .saving))
    #expect(status.sources.count == 1)
    status.apply(.compiling(sources: 1))
    #expect(status.step == "compiling")
  }
}
