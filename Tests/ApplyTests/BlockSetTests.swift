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

  @Test(
    "The profile's block set file is read when its fingerprint is current; a new rule or a damaged file compiles again")
  func savedFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    try store.addRule("ads.example", action: .deny)
    let fresh = try await BlockSet.compile(profile: nil, in: store)
    #expect(!fresh.fromFile)
    // Save it as `update` does: the file, and the compiled profile under the current fingerprint.
    let profile = try store.activeProfile()
    let fingerprint = try store.currentFingerprint(of: profile)
    let file = "profiles/\(profile.id)-\(fingerprint.prefix(16)).blockset"
    try FileManager.default.createDirectory(at: store.directory.profiles, withIntermediateDirectories: true)
    try fresh.list.writeArchive(to: store.directory.file(file).path, fingerprint: fingerprint)
    let now = Date()
    _ = try await store.commit(
      [],
      run: UpdateRun(
        profileID: profile.id, profileName: profile.name, startedAt: now, finishedAt: now, forced: false,
        results: [], names: 1),
      compiled: CompiledProfile(
        profileID: profile.id, file: file, sha256: "", names: 1, fingerprint: fingerprint, compiledAt: now,
        ruleCounts: [:]))
    let saved = try await BlockSet.compile(profile: nil, in: store)
    #expect(saved.fromFile && saved.list.allNames == ["ads.example"])

    try store.addRule("tracker.example", action: .deny)
    let changed = try await BlockSet.compile(profile: nil, in: store)
    #expect(!changed.fromFile && changed.list.blocks("tracker.example"))

    try store.removeRule("tracker.example", action: .deny)
    try Data("damaged".utf8).write(to: store.directory.file(file))
    let recompiled = try await BlockSet.compile(profile: nil, in: store)
    #expect(!recompiled.fromFile && recompiled.list.allNames == ["ads.example"])
  }
}
