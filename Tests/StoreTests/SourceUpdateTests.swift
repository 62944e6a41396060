import Blocklists
import Foundation
import Store
import Testing

@Suite("Source updates")
struct SourceUpdateTests {
  @Test("An update carries its source, time and change")
  func update() {
    let date = Date(timeIntervalSince1970: 100)
    let update = SourceUpdate(sourceID: 7, attemptedAt: date, change: .failed(message: "timed out"))
    #expect(update.sourceID == 7)
    #expect(update.attemptedAt == date)
    guard case .failed(let message) = update.change else {
      Issue.record("expected failed, got \(update.change)")
      return
    }
    #expect(message == "timed out")
  }

  @Test("A copy keeps every figure it is given")
  func copy() {
    let copy = SourceUpdate.Copy(
      etag: "\"1\"", lastModified: nil, sha256: "abc", cacheFile: "lists/a-abc.list", bytes: 99,
      accepted: 10, unique: 8, duplicates: 2, rejected: 1, detectedFormat: .dnsmasq, findings: Findings())
    let update = SourceUpdate(sourceID: 1, attemptedAt: Date(), change: .updated(copy))
    guard case .updated(let carried) = update.change else {
      Issue.record("expected updated, got \(update.change)")
      return
    }
    #expect(carried.etag == "\"1\"")
    #expect(carried.lastModified == nil)
    #expect(carried.cacheFile == "lists/a-abc.list")
    #expect(carried.accepted == 10)
    #expect(carried.unique == 8)
    #expect(carried.duplicates == 2)
    #expect(carried.rejected == 1)
    #expect(carried.bytes == 99)
    #expect(carried.detectedFormat == .dnsmasq)
  }

  @Test("Unchanged carries the validators the server sent, which may be none")
  func unchanged() {
    let update = SourceUpdate(sourceID: 1, attemptedAt: Date(), change: .unchanged(etag: "\"2\"", lastModified: nil))
    guard case .unchanged(let etag, let lastModified, _) = update.change else {
      Issue.record("expected unchanged, got \(update.change)")
      return
    }
    #expect(etag == "\"2\"")
    #expect(lastModified == nil)
  }
}
