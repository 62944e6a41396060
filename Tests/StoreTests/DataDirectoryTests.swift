import Foundation
import Store
import TestSupport
import Testing

@Suite("Data directory")
struct DataDirectoryTests {
  @Test("An explicit path wins over every environment variable")
  func explicitFirst() {
    let directory = DataDirectory.resolve(
      explicit: "/srv/explicit",
      environment: ["SANEHOSTS_HOME": "/srv/home", "XDG_DATA_HOME": "/srv/xdg", "HOME": "/home/someone"])
    #expect(directory.url.path == "/srv/explicit")
  }

  @Test("$SANEHOSTS_HOME comes next, then $XDG_DATA_HOME/sanehosts, then ~/.local/share/sanehosts")
  func environmentOrder() {
    let all = ["SANEHOSTS_HOME": "/srv/home", "XDG_DATA_HOME": "/srv/xdg", "HOME": "/home/someone"]
    #expect(DataDirectory.resolve(environment: all).url.path == "/srv/home")
    #expect(
      DataDirectory.resolve(explicit: "", environment: all).url.path == "/srv/home", "an empty --data-dir is unset")

    var noHome = all
    noHome["SANEHOSTS_HOME"] = ""
    #expect(DataDirectory.resolve(environment: noHome).url.path == "/srv/xdg/sanehosts")
    noHome["SANEHOSTS_HOME"] = nil
    #expect(DataDirectory.resolve(environment: noHome).url.path == "/srv/xdg/sanehosts")

    let homeOnly = ["HOME": "/home/someone"]
    #expect(DataDirectory.resolve(environment: homeOnly).url.path == "/home/someone/.local/share/sanehosts")
  }

  @Test("A relative or empty $XDG_DATA_HOME is ignored, as the XDG spec says")
  func relativeXDGIgnored() {
    for xdg in ["relative/data", ""] {
      let directory = DataDirectory.resolve(environment: ["XDG_DATA_HOME": xdg, "HOME": "/home/someone"])
      #expect(directory.url.path == "/home/someone/.local/share/sanehosts", "XDG_DATA_HOME=\(xdg)")
    }
  }

  @Test("Paths are standardised and a leading ~ is expanded")
  func standardised() {
    let dotted = DataDirectory.resolve(explicit: "/srv/a/../b/./data", environment: [:])
    #expect(dotted.url.path == "/srv/b/data")
    let tilde = DataDirectory.resolve(explicit: "~/sanehosts-data", environment: [:])
    #expect(!tilde.url.path.contains("~"))
    #expect(tilde.url.path.hasSuffix("/sanehosts-data"))
    #expect(tilde.url.path.hasPrefix("/"))
  }

  @Test("The database, lists, profiles, staging and lock live inside the directory")
  func layout() {
    let directory = DataDirectory(url: URL(fileURLWithPath: "/srv/data"))
    #expect(directory.database.path == "/srv/data/sanehosts.sqlite")
    #expect(directory.lists.path.hasPrefix("/srv/data/lists"))
    #expect(directory.profiles.path.hasPrefix("/srv/data/profiles"))
    #expect(directory.staging.path.hasPrefix("/srv/data/staging"))
    #expect(directory.updateLock.path == "/srv/data/update.lock")
    #expect(directory.file("lists/a.list").path == "/srv/data/lists/a.list")
  }

  @Test("relativePath(of:) strips the directory, and only the directory")
  func relativePath() {
    let directory = DataDirectory(url: URL(fileURLWithPath: "/srv/data"))
    #expect(directory.relativePath(of: URL(fileURLWithPath: "/srv/data/lists/a.list")) == "lists/a.list")
    #expect(directory.relativePath(of: directory.lists.appendingPathComponent("b.list")) == "lists/b.list")
    #expect(
      directory.relativePath(of: URL(fileURLWithPath: "/srv/data/lists/../profiles/1.domains")) == "profiles/1.domains")
    // A sibling whose name merely starts with the directory's name is not inside it.
    #expect(directory.relativePath(of: URL(fileURLWithPath: "/srv/data-old/x.list")) == "/srv/data-old/x.list")
    #expect(directory.relativePath(of: URL(fileURLWithPath: "/elsewhere/x.list")) == "/elsewhere/x.list")
    // Round trip through file(_:).
    #expect(directory.relativePath(of: directory.file("profiles/7-abc.domains")) == "profiles/7-abc.domains")
  }

  @Test("create() makes the directory and its subfolders, readable by the user alone, and can run twice")
  func create() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = DataDirectory(url: temp.file("nested/data"))
    try directory.create()
    try directory.create()
    for folder in [directory.url, directory.lists, directory.profiles, directory.staging] {
      var isDirectory: ObjCBool = false
      #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory))
      #expect(isDirectory.boolValue, "\(folder.path)")
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.lists.path)
    let permissions = try #require(attributes[.posixPermissions] as? NSNumber).intValue
    #expect(permissions & 0o077 == 0, "lists must not be readable by others: \(String(permissions, radix: 8))")
  }

  @Test("create() under a regular file fails with cannotOpen, naming the path")
  func createUnderFile() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let blocker = temp.file("not-a-directory")
    try Data("x".utf8).write(to: blocker)
    let directory = DataDirectory(url: blocker.appendingPathComponent("data"))
    let error = #expect(throws: StoreError.self) { try directory.create() }
    guard case .cannotOpen(let path, let detail) = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(path.hasPrefix(blocker.path))
    #expect(!detail.isEmpty)
  }

  @Test("create() on a directory the user cannot write reports readOnly")
  func createReadOnly() throws {
    let temp = try TemporaryDirectory()
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: temp.url.path)
      temp.remove()
    }
    let directory = DataDirectory(url: temp.url)
    try directory.create()
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: temp.url.path)
    // Root writes through any permission bits, so the check cannot fail there; the regular-file test above
    // covers the failing path for every user.
    guard !ignoresPermissions else { return }
    #expect(throws: StoreError.readOnly(path: directory.url.path)) { try directory.create() }
  }
}
