import Apply
import Blocklists
import Foundation
import Store
import TestSupport
import Testing

@Suite("A profile's block set")
struct BlockSetTests {
  @Test("A profile with nothing to block is a named error")
  func empty() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    await #expect(throws: ApplyError.nothingToApply(profile: "default", reason: .noEnabledSource)) {
      try await BlockSet.compile(profile: nil, in: store)
    }
  }

  @Test("Deny rules alone make a block set; a source never downloaded is named as missing")
  func denyRulesAndMissing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    try store.addRule("ads.example", action: .deny)
    try store.addRule("=tracker.example", action: .deny)
    try store.addSource(NewSource(location: URL(string: "https://lists.example/never.txt")!, key: "never"))
    let set = try await BlockSet.compile(profile: nil, in: store)
    #expect(set.profile.name == "default")
    #expect(set.missing == ["never"])
    #expect(set.list.blocks("ads.example") && set.list.blocks("tracker.example"))
    #expect(set.list.count == 2)
  }
}
