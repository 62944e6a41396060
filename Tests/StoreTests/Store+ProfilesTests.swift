import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Profiles")
struct StoreProfilesTests {
  @Test("Creating a profile adds it, not active, with its sources in order")
  func create() async throws {
    try await withStore { store, _ throws in
      let created = try store.createProfile(
        "work", summary: "Office", preset: "essentials", sources: [web("b"), web("a")])
      #expect(created.id != nil)
      #expect(!created.isActive)
      #expect(try store.activeProfile().name == "default")
      let work = try store.profile("work")
      #expect(work.summary == "Office")
      #expect(work.preset == "essentials")
      #expect(try store.sources(in: "work").map(\.source.key) == ["lists-website-b", "lists-website-a"])
      #expect(try store.sources(in: "work").allSatisfy(\.enabled))
      #expect(try store.sources(in: "default").isEmpty)
    }
  }

  @Test("Creating with activate makes it the only active profile")
  func createActive() async throws {
    try await withStore { store, _ throws in
      let created = try store.createProfile("home", activate: true)
      #expect(created.isActive)
      #expect(try store.activeProfile().name == "home")
      #expect(try store.profiles().filter(\.isActive).map(\.name) == ["home"])
    }
  }

  @Test("Profile names are unique ignoring case, and must be usable names")
  func createRefused() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.alreadyExists(kind: "profile", name: "Default")) {
        try store.createProfile("Default")
      }
      for bad in ["", "has space", "-flag", "semi;colon", String(repeating: "a", count: 65)] {
        let error = #expect(throws: StoreError.self, "\(bad)") { try store.createProfile(bad) }
        guard case .invalid(let value, _) = error else {
          Issue.record("expected invalid for “\(bad)”, got \(String(describing: error))")
          continue
        }
        #expect(value == bad)
      }
      #expect(try store.profiles().map(\.name) == ["default"])
    }
  }

  @Test("A profile whose source list repeats a source is not created at all")
  func createRollsBack() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.self) { try store.createProfile("twice", sources: [web("x"), web("x")]) }
      #expect(try store.profiles().map(\.name) == ["default"])
      #expect(try store.allSources().isEmpty)
    }
  }

  @Test("Profiles are listed by name ignoring case, and looked up ignoring case")
  func listing() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("beta")
      try store.createProfile("Alpha")
      try store.createProfile("gamma")
      #expect(try store.profiles().map(\.name) == ["Alpha", "beta", "default", "gamma"])
      #expect(try store.profile("ALPHA").name == "Alpha")
      #expect(try store.profile(nil).name == "default")
    }
  }

  @Test("An unknown profile is reported with the known ones")
  func unknown() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      #expect(throws: StoreError.notFound(kind: "profile", name: "play", known: ["default", "work"])) {
        try store.profile("play")
      }
      #expect(throws: StoreError.notFound(kind: "profile", name: "play", known: ["default", "work"])) {
        try store.useProfile("play")
      }
      #expect(try store.activeProfile().name == "default")
    }
  }

  @Test("Using a profile makes it active and the previous one inactive")
  func use() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      let used = try store.useProfile("WORK")
      #expect(used.name == "work")
      #expect(used.isActive)
      #expect(try store.activeProfile().name == "work")
      #expect(try store.profile("default").isActive == false)
      try store.useProfile("default")
      #expect(try store.profiles().filter(\.isActive).map(\.name) == ["default"])
    }
  }

  @Test("A store that lost its active profile reads the first one as active, and the next write saves that")
  func repairsActive() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      try store.execute("UPDATE profile SET isActive = 0")
      // Reads cannot write, but must not fail.
      let active = try store.activeProfile()
      #expect(active.name == "default")
      #expect(active.isActive)
      #expect(try store.sources().isEmpty)
      #expect(try store.integer("SELECT COUNT(*) FROM profile WHERE isActive") == 0)
      // A write that looks up the active profile repairs it for good.
      try store.addRule("x.website", action: .deny)
      #expect(try store.profiles().filter(\.isActive).map(\.name) == ["default"])
      #expect(try store.rules(in: "default").count == 1)
    }
  }

  @Test("Duplicating copies sources, their enabled state and rules, sharing the sources")
  func duplicate() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("one"))
      try store.addSource(web("two"))
      try store.setEnabled(false, source: "lists-website-two")
      try store.addRule("ok.website", action: .allow, comment: "needed")
      try store.addRule("bad.website", action: .deny)

      let copy = try store.duplicateProfile("default", as: "copy")
      #expect(copy.name == "copy")
      #expect(!copy.isActive)
      #expect(copy.summary == (try store.profile("default").summary))
      let sources = try store.sources(in: "copy")
      #expect(sources.map(\.source.key) == ["lists-website-one", "lists-website-two"])
      #expect(sources.map(\.enabled) == [true, false])
      #expect(try store.allSources().count == 2, "the copy shares the sources, it does not add new ones")
      let rules = try store.rules(in: "copy")
      #expect(rules.map(\.text) == ["ok.website", "bad.website"])
      #expect(rules.first?.comment == "needed")
      #expect(rules.allSatisfy { $0.profileID == copy.id })

      // The copy is independent: changing it leaves the original alone.
      try store.removeRule("ok.website", action: .allow, from: "copy")
      #expect(try store.rules(in: "default").count == 2)
    }
  }

  @Test("Duplicating onto a taken or unusable name, or from an unknown profile, fails")
  func duplicateRefused() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      #expect(throws: StoreError.alreadyExists(kind: "profile", name: "WORK")) {
        try store.duplicateProfile("default", as: "WORK")
      }
      #expect(throws: StoreError.self) { try store.duplicateProfile("default", as: "no good") }
      #expect(throws: StoreError.notFound(kind: "profile", name: "nope", known: ["default", "work"])) {
        try store.duplicateProfile("nope", as: "fresh")
      }
      #expect(try store.profiles().count == 2)
    }
  }

  @Test("Merging adds only what the target lacks, after its own sources, and counts it")
  func merge() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("other", sources: [web("shared"), web("extra")])
      try store.addSource(web("own"))
      try store.addSource(web("shared"))
      try store.addRule("x.website", action: .deny, to: "other")
      try store.addRule("x.website", action: .deny)
      try store.addRule("y.website", action: .allow, to: "other")
      try store.setEnabled(false, source: "lists-website-extra", in: "other")

      let added = try store.mergeProfile("other", into: "default")
      #expect(added.sources == 1)
      #expect(added.rules == 1)
      let sources = try store.sources(in: "default")
      #expect(sources.map(\.source.key) == ["lists-website-own", "lists-website-shared", "lists-website-extra"])
      #expect(sources.map(\.enabled) == [true, true, false])
      #expect(try store.rules().map(\.text).sorted() == ["x.website", "y.website"])
      // Nothing changed in the profile merged from.
      #expect(try store.sources(in: "other").count == 2)
      #expect(try store.rules(in: "other").count == 2)

      let again = try store.mergeProfile("other", into: "default")
      #expect(again.sources == 0)
      #expect(again.rules == 0)
    }
  }

  @Test("A profile cannot be merged into itself")
  func mergeSelf() async throws {
    try await withStore { store, _ throws in
      let error = #expect(throws: StoreError.self) { try store.mergeProfile("default", into: "DEFAULT") }
      guard case .invalid(let value, let reason) = error else {
        Issue.record("expected invalid, got \(String(describing: error))")
        return
      }
      #expect(value == "default")
      #expect(reason.contains("itself"))
    }
  }

  @Test("The active profile cannot be deleted")
  func deleteActive() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.deletingActiveProfile(name: "default")) { try store.deleteProfile("default") }
      #expect(try store.profiles().map(\.name) == ["default"])
    }
  }

  @Test("Deleting a profile removes its rules, the sources only it used and their copies, and its compiled list")
  func delete() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("doomed", sources: [web("shared"), web("only")])
      try store.addSource(web("shared"))
      try store.addRule("a.website", action: .deny, to: "doomed")
      let only = try #require(try store.source(key: "lists-website-only"))
      let shared = try #require(try store.source(key: "lists-website-shared"))
      let onlySaved = try await store.save(["only.website"], for: only)
      let sharedSaved = try await store.save(["shared.website"], for: shared)
      let doomed = try store.profile("doomed")
      let compiledFile = "profiles/\(doomed.id)-abc.domains"
      try Data("only.website\n".utf8).write(to: store.directory.file(compiledFile))
      let compiled = CompiledProfile(
        profileID: doomed.id, file: compiledFile, sha256: "00", names: 1, fingerprint: "f", compiledAt: Date(),
        ruleCounts: [:])
      _ = try await store.commit(
        [],
        run: UpdateRun(
          profileID: doomed.id, profileName: "doomed", startedAt: Date(), finishedAt: Date(), forced: false,
          results: [], names: 1), compiled: compiled)

      try store.deleteProfile("Doomed")

      #expect(try store.profiles().map(\.name) == ["default"])
      #expect(try store.allSources().map(\.key) == ["lists-website-shared"])
      #expect(try store.integer("SELECT COUNT(*) FROM rule") == 0)
      #expect(try store.integer("SELECT COUNT(*) FROM compiledProfile") == 0)
      #expect(!exists(try #require(onlySaved.cacheFile), in: store))
      #expect(exists(try #require(sharedSaved.cacheFile), in: store))
      #expect(!exists(compiledFile, in: store))
    }
  }

  @Test("Deleting an unknown profile fails and changes nothing")
  func deleteUnknown() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.notFound(kind: "profile", name: "ghost", known: ["default"])) {
        try store.deleteProfile("ghost")
      }
      #expect(try store.profiles().map(\.name) == ["default"])
    }
  }

  @Test("removeFiles removes files of the data directory and ignores ones already gone")
  func removeFiles() async throws {
    try await withStore { store, _ throws in
      try Data("x".utf8).write(to: store.directory.file("lists/a.list"))
      store.removeFiles(["lists/a.list", "lists/missing.list"])
      #expect(!exists("lists/a.list", in: store))
    }
  }
}
