import Blocklists
import Catalog
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Sources")
struct StoreSourcesTests {
  @Test("Adding a source stores it with a derived key and puts it in the active profile")
  func add() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work", activate: true)
      let (source, isNew) = try store.addSource(web("ads", format: .adblock))
      #expect(isNew)
      #expect(source.id != nil)
      #expect(source.key == "lists-website-ads")
      #expect(source.name == "lists-website-ads", "the key is the display name when none is given")
      #expect(source.location == "https://lists.website/ads.txt")
      #expect(source.format == .adblock)
      #expect(source.status == .new)
      #expect(try store.sources(in: "work").map(\.source.id) == [source.id])
      #expect(try store.sources(in: "default").isEmpty)
    }
  }

  @Test("A catalog entry keeps its id as key, its name, format and category")
  func addCatalogEntry() async throws {
    try await withStore { store, _ throws in
      let entry = try #require(Catalog.builtIn.entry(id: "stevenblack-unified"))
      let source = try store.addSource(NewSource(entry)).source
      #expect(source.key == "stevenblack-unified")
      #expect(source.name == entry.name)
      #expect(source.catalogID == "stevenblack-unified")
      #expect(source.format == entry.format)
      #expect(source.category == entry.category)
      #expect(source.location == entry.url.absoluteString)
    }
  }

  @Test("A location already in the store is reused by another profile, not added twice")
  func reuseByLocation() async throws {
    try await withStore { store, _ throws in
      let first = try store.addSource(web("ads"))
      try store.createProfile("work")
      let second = try store.addSource(web("ads", key: "other-name"), to: "work")
      #expect(!second.isNew)
      #expect(second.source.id == first.source.id)
      #expect(second.source.key == "lists-website-ads")
      #expect(try store.allSources().count == 1)
      #expect(try store.sources(in: "work").map(\.source.id) == [first.source.id])
    }
  }

  @Test("Re-adding with a forced format updates the format; a catalog entry's format is not overridden")
  func reuseUpdatesFormat() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("ads"))
      try store.createProfile("work")
      let updated = try store.addSource(web("ads", format: .domains), to: "work")
      #expect(updated.source.format == .domains)
      #expect(try store.source(key: "lists-website-ads")?.format == .domains)

      let entry = try #require(Catalog.builtIn.entry(id: "stevenblack-unified"))
      try store.addSource(NewSource(entry))
      var relisted = NewSource(entry)
      relisted.format = .domains
      let again = try store.addSource(relisted, to: "work")
      #expect(again.source.format == entry.format)
      #expect(try store.source(key: "stevenblack-unified")?.format == entry.format)
    }
  }

  @Test("A source already in the profile is refused")
  func addTwice() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("ads"))
      #expect(
        throws: StoreError.alreadyInProfile(
          source: "lists-website-ads", location: "https://lists.website/ads.txt", profile: "default")
      ) {
        try store.addSource(web("ads"))
      }
      #expect(try store.sources().count == 1)
    }
  }

  @Test("A derived key that is taken gets -2, -3, …; an explicit one that is taken is refused")
  func keyCollisions() async throws {
    try await withStore { store, _ throws in
      let a = URL(string: "https://one.website/hosts.txt")!
      let b = URL(string: "https://two.website/x/hosts.txt")!
      try store.addSource(NewSource(location: a, key: "hosts"))
      let second = try store.addSource(NewSource(location: URL(string: "https://h.website/a/hosts")!, key: nil))
      #expect(second.source.key == "h-website-hosts")
      let derivedTwice = try store.addSource(NewSource(location: URL(string: "https://h.website/b/hosts")!))
      #expect(derivedTwice.source.key == "h-website-hosts-2")
      let derivedThrice = try store.addSource(NewSource(location: URL(string: "https://h.website/c/hosts")!))
      #expect(derivedThrice.source.key == "h-website-hosts-3")
      #expect(throws: StoreError.alreadyExists(kind: "source", name: "hosts")) {
        try store.addSource(NewSource(location: b, key: "hosts"))
      }
      #expect(try store.allSources().count == 4)
    }
  }

  @Test("An explicit key must be a usable name")
  func badKey() async throws {
    try await withStore { store, _ throws in
      for key in ["", "has space", "semi;colon", String(repeating: "k", count: 65)] {
        let error = #expect(throws: StoreError.self, "\(key)") { try store.addSource(web("x", key: key)) }
        guard case .invalid(let value, _) = error else {
          Issue.record("expected invalid for “\(key)”, got \(String(describing: error))")
          continue
        }
        #expect(value == key)
      }
      #expect(try store.allSources().isEmpty)
    }
  }

  @Test("Sources are found by key (ignoring case), number or location")
  func lookup() async throws {
    try await withStore { store, temp throws in
      let remote = try store.addSource(web("ads")).source
      let file = temp.file("local.txt")
      try Data("0.0.0.0 a.website\n".utf8).write(to: file)
      let local = try store.addSource(NewSource(location: file)).source
      #expect(try store.setEnabled(false, source: "LISTS-WEBSITE-ADS").id == remote.id)
      #expect(try store.setEnabled(false, source: String(local.id)).id == local.id)
      #expect(try store.setEnabled(true, source: "https://lists.website/ads.txt").id == remote.id)
      #expect(try store.setEnabled(true, source: file.path).id == local.id)
      #expect(try store.sources().map(\.enabled) == [true, true])
    }
  }

  @Test("An unknown source reference is reported with the profile's keys")
  func lookupUnknown() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("ads"))
      #expect(
        throws: StoreError.notFound(kind: "source in profile “default”", name: "nope", known: ["lists-website-ads"])
      ) {
        try store.removeSource("nope")
      }
      #expect(try store.sources().count == 1)
    }
  }

  @Test("A source of another profile is not found in this one")
  func lookupOtherProfile() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work", sources: [web("ads")])
      #expect(throws: StoreError.self) { try store.setEnabled(false, source: "lists-website-ads") }
      #expect(try store.setEnabled(false, source: "lists-website-ads", in: "work").key == "lists-website-ads")
    }
  }

  @Test("Disabling turns a source off in one profile only")
  func enableDisable() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("ads"))
      try store.duplicateProfile("default", as: "work")
      try store.setEnabled(false, source: "lists-website-ads")
      #expect(try store.sources().map(\.enabled) == [false])
      #expect(try store.sources(in: "work").map(\.enabled) == [true])
      try store.setEnabled(true, source: "lists-website-ads")
      #expect(try store.sources().map(\.enabled) == [true])
    }
  }

  @Test("Removing a source another profile uses keeps it and its copy")
  func removeShared() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let saved = try await store.save(["a.website"], for: source)
      try store.duplicateProfile("default", as: "work")
      let removed = try store.removeSource("lists-website-ads")
      #expect(removed.id == source.id)
      #expect(try store.sources().isEmpty)
      #expect(try store.sources(in: "work").count == 1)
      #expect(try store.allSources().count == 1)
      #expect(exists(try #require(saved.cacheFile), in: store))
    }
  }

  @Test("Removing the last use of a source deletes it, its names and its copy")
  func removeLast() async throws {
    try await withStore { store, _ throws in
      let keep = try store.addSource(web("keep")).source
      let source = try store.addSource(web("ads")).source
      let saved = try await store.save(["a.website", "b.website"], for: source)
      let kept = try await store.save(["k.website"], for: keep)
      let cacheFile = try #require(saved.cacheFile)
      #expect(await store.names(of: saved) == ["a.website", "b.website"])  // writes its block set file
      #expect(exists(cacheFile, in: store) && exists(Store.listFile(forCopy: cacheFile), in: store))
      try store.removeSource("lists-website-ads")
      #expect(try store.allSources().map(\.key) == ["lists-website-keep"])
      #expect(!exists(cacheFile, in: store) && !exists(Store.listFile(forCopy: cacheFile), in: store))
      #expect(exists(try #require(kept.cacheFile), in: store))
    }
  }

  @Test("allSources lists every source of every profile by key")
  func allSources() async throws {
    try await withStore { store, _ throws in
      try store.addSource(web("zeta"))
      try store.createProfile("work", sources: [web("alpha")])
      #expect(try store.allSources().map(\.key) == ["lists-website-alpha", "lists-website-zeta"])
    }
  }

  @Test("names(of:) returns a source's saved names, sorted")
  func names() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      #expect(await store.names(of: source).isEmpty)
      try await store.save(["c.website", "a.website", "b.website"], for: source)
      #expect(await store.names(of: source) == ["a.website", "b.website", "c.website"])
    }
  }
}
