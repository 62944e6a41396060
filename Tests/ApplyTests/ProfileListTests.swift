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
      try await ProfileList.compile(profile: nil, in: store)
    }
  }

  @Test("Deny rules alone make a block set; a source never downloaded is named as missing")
  func denyRulesAndMissing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    try store.addRule("ads.website", action: .deny)
    try store.addRule("=tracker.website", action: .deny)
    try store.addSource(NewSource(location: URL(string: "https://lists.website/never.txt")!, key: "never"))
    let set = try await ProfileList.compile(profile: nil, in: store)
    #expect(set.profile.name == "default")
    #expect(set.missing == ["never"])
    #expect(set.list.blocks("ads.website") && set.list.blocks("tracker.website"))
    #expect(set.list.count == 2)
  }

  @Test(
    "The profile's block set file is read when its fingerprint is current; a new rule or a damaged file compiles again")
  func savedFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    try store.addRule("ads.website", action: .deny)
    let fresh = try await ProfileList.compile(profile: nil, in: store)
    #expect(!fresh.fromFile)
    // Save it as `update` does: the file, and the compiled profile under the current fingerprint.
    let file = try await store.saveAsCompiled(fresh.list, names: 1)
    let saved = try await ProfileList.compile(profile: nil, in: store)
    #expect(saved.fromFile && saved.list.allNames == ["ads.website"])

    try store.addRule("tracker.website", action: .deny)
    let changed = try await ProfileList.compile(profile: nil, in: store)
    #expect(!changed.fromFile && changed.list.blocks("tracker.website"))

    try store.removeRule("tracker.website", action: .deny)
    try Data("damaged".utf8).write(to: URL(fileURLWithPath: file))
    let recompiled = try await ProfileList.compile(profile: nil, in: store)
    #expect(!recompiled.fromFile && recompiled.list.allNames == ["ads.website"])
  }
}
