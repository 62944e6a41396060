import Blocklists
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Source records")
struct SourceTests {
  @Test("A new source has never been downloaded")
  func fresh() {
    let source = Source(id: 1, key: "ads", name: "Ads", location: "https://lists.website/ads.txt")
    #expect(source.id == 1)
    #expect(source.status == .new)
    #expect(!source.hasCopy)
    #expect(!source.isFile)
    #expect(source.url == URL(string: "https://lists.website/ads.txt"))
    #expect(source.lastAttempt == nil)
    #expect(source.unique == nil)
  }

  @Test("File sources are recognised by their file:// location")
  func file() {
    let source = Source(
      id: 2, key: "local", name: "Local", location: URL(fileURLWithPath: "/srv/list.txt").absoluteString)
    #expect(source.isFile)
    #expect(source.url?.path == "/srv/list.txt")
    var copied = source
    copied.cacheFile = "lists/local-0123.list"
    #expect(copied.hasCopy)
  }

  @Test("Every field survives a round trip through the database")
  func roundTrip() async throws {
    try await withStore { store, _ throws in
      var findings = Findings()
      findings.lines = 10
      findings.ignoredLines = 2
      findings.names = 7
      findings.formats = [.hosts: 7]
      var source = Source(
        id: 9, key: "full", name: "Full “list”", location: "https://lists.website/full.txt", catalogID: "full-id",
        format: .wildcard, category: "ads", addedAt: Date(timeIntervalSince1970: 1_000_000))
      source.etag = "\"e\""
      source.lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
      source.sha256 = String(repeating: "ab", count: 32)
      source.cacheFile = "lists/full-abab.list"
      source.lastAttempt = Date(timeIntervalSince1970: 2_000_000)
      source.lastSuccess = Date(timeIntervalSince1970: 3_000_000)
      source.lastChange = Date(timeIntervalSince1970: 4_000_000)
      source.status = .failed
      source.message = "HTTP 404"
      source.bytes = 123_456_789_012
      source.accepted = 8
      source.unique = 7
      source.duplicates = 1
      source.rejected = 3
      source.detectedFormat = .hosts
      source.findings = findings
      let inserted = try store.database.write { [source] db in
        var source = source
        try source.insert(db)
        return source
      }
      #expect(inserted.id != nil)
      let fetched = try #require(try store.source(key: "full"))
      #expect(fetched == inserted)
    }
  }

  @Test("Status raw values are what the database and JSON hold")
  func statusValues() {
    #expect(
      [Source.Status.new, .updated, .unchanged, .failed].map(\.rawValue) == ["new", "updated", "unchanged", "failed"])
  }

  @Test("ProfileSource pairs a source with its enabled state in one profile")
  func profileSource() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("a")).source
      try store.setEnabled(false, source: source.key)
      let listed = try store.sources()
      #expect(listed.map(\.source.id) == [source.id])
      #expect(listed.map(\.enabled) == [false])
      #expect(listed.first != ProfileSource(source: try #require(listed.first).source, enabled: true))
    }
  }
}
