import Apply
import Blocklists
import Foundation
import GRDB
import Store
import TestSupport
import Testing

@testable import UseCases

/// The attacks of an account that can write the store (the Debian package's `sanehosts` user) against
/// `sanehosts reapply` run as root, as the package's apply unit runs it: the store is another user's
/// (65534), its requests ask for places an administrator allowed, and each attack is on the store alone.
@Suite("A hostile store through root's reapply: nothing injected, no link followed", .serialized)
struct ReapplyHostileStoreTests {
  /// A store another user owns (as root), with a list and the places an administrator allowed.
  struct Hostile {
    let updated: UpdatedStore
    let places: TemporaryDirectory
    var data: DataDirectory { updated.store.directory }

    static func make() async throws -> Hostile {
      let updated = try UpdatedStore()
      try updated.add("0.0.0.0 ads.website\n0.0.0.0 sub.tracker.website\n", key: "ads")
      try await updated.update()
      let places = try TemporaryDirectory(prefix: "sanehosts-places")
      try Data("127.0.0.1 localhost\n".utf8).write(to: places.file("hosts"))
      return Hostile(updated: updated, places: places)
    }

    /// Gives the store to another user, as the package's store belongs to `sanehosts`.
    func giveAway() throws {
      guard geteuid() == 0 else { return }
      let paths = try FileManager.default.subpathsOfDirectory(atPath: data.url.path)
      for path in [data.url.path] + paths.map({ "\(data.url.path)/\($0)" }) { lchown(path, 65534, 65534) }
    }

    /// The allowed file for `target`.
    func place(_ target: Target) -> String {
      places.file(target.name == "hosts" ? "hosts" : "\(target.name).conf").path
    }

    /// Asks root for `target` and runs root's reapply limited to the allowed places.
    func reapply(_ target: Target) async throws -> Reapply.Place? {
      try ApplyRequest.submit(
        ApplyRequest(target: target.name, path: place(target), profile: nil, verifyServer: nil), in: data)
      try giveAway()
      let limits = Reapply.Limits(
        places: Set(Target.all.map { Reapply.Limits.Place(target: $0.name, path: place($0)) }))
      return await Reapply(store: updated.store, limits: limits).run().places.first {
        $0.path == Ledger.key(place(target))
      }
    }

    /// Writes a rule row past `addRules`, as the attacker's account can.
    func insertRule(action: String, kind: String, pattern: String) throws {
      let queue = try DatabaseQueue(path: data.database.path)
      try queue.write { db in
        try db.execute(
          sql:
            "INSERT INTO rule (profileID, action, kind, pattern, addedAt) SELECT id, ?, ?, ?, 0 FROM profile WHERE isActive",
          arguments: [action, kind, pattern])
      }
    }

    func remove() {
      updated.remove()
      places.remove()
    }
  }

  static let injected =
    "x.example.com.\" always_null\nlocal-data: \"www.bank.example. A 203.0.113.7\"\ninclude: \"/var/lib/sanehosts/evil.conf\"\nlocal-zone: \"y.example.com"

  @Test(
    "A rule written into the database (a directive, a regex as a deny rule) is written to no target, named",
    arguments: Target.all)
  func injection(target: Target) async throws {
    for (kind, pattern) in [
      ("exact", Self.injected), ("regex", "evil\\.website"), ("wildcard", "a.website/\nconf-file=/x"),
    ] {
      let hostile = try await Hostile.make()
      defer { hostile.remove() }
      try hostile.insertRule(action: "deny", kind: kind, pattern: pattern)
      let before = try? Data(contentsOf: URL(fileURLWithPath: hostile.place(target)))
      let place = try #require(try await hostile.reapply(target), "\(target.name)")
      #expect(place.failed && place.line.contains("nothing was applied"), "\(target.name) \(kind): \(place.line)")
      let after = try? Data(contentsOf: URL(fileURLWithPath: hostile.place(target)))
      #expect(after == before, "\(target.name) untouched")
    }
  }

  @Test("The same store unharmed: root applies every allowed place, and what it creates in the store is its owner's")
  func unharmed() async throws {
    for target in [Target.hosts, .server(.dnsmasq), .server(.unbound), .server(.bind)] {
      let hostile = try await Hostile.make()
      defer { hostile.remove() }
      let place = try #require(try await hostile.reapply(target))
      #expect(!place.failed, "\(target.name): \(place.line)")
      #expect(try String(contentsOfFile: hostile.place(target), encoding: .utf8).contains("ads.website"))
      if geteuid() == 0 {
        let made = try FileManager.default.subpathsOfDirectory(atPath: hostile.data.url.path)
        for path in made {
          var info = stat()
          #expect(lstat("\(hostile.data.url.path)/\(path)", &info) == 0 && info.st_uid == 65534, "\(path)")
        }
      }
    }
  }

  @Test("backups/ a link to a root folder: the hosts file is not written, nothing made or pruned there")
  func linkedBackups() async throws {
    let hostile = try await Hostile.make()
    defer { hostile.remove() }
    let victim = hostile.places.file("root-dir")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    try Data("keep\n".utf8).write(to: victim.appending(path: "hosts-20260101T000000Z-1"))
    try? FileManager.default.removeItem(at: hostile.data.backups)
    try FileManager.default.createSymbolicLink(atPath: hostile.data.backups.path, withDestinationPath: victim.path)
    let place = try #require(try await hostile.reapply(.hosts))
    #expect(place.failed && place.line.contains("symbolic link"), "\(place.line)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["hosts-20260101T000000Z-1"])
    #expect(try String(contentsOfFile: hostile.place(.hosts), encoding: .utf8) == "127.0.0.1 localhost\n")
  }

  @Test("loaded/ a link to another folder: the drop-in's content is never written there")
  func linkedLoaded() async throws {
    let hostile = try await Hostile.make()
    defer { hostile.remove() }
    let victim = hostile.places.file("other-dir")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: hostile.data.file("loaded").path, withDestinationPath: victim.path)
    _ = try await hostile.reapply(.server(.dnsmasq))
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)
  }

  @Test("apply.lock a link: root creates no file where it points, and says why")
  func linkedLock() async throws {
    let hostile = try await Hostile.make()
    defer { hostile.remove() }
    let nologin = hostile.places.file("nologin")
    try? FileManager.default.removeItem(at: hostile.data.file("apply.lock"))
    try FileManager.default.createSymbolicLink(
      atPath: hostile.data.file("apply.lock").path, withDestinationPath: nologin.path)
    let place = try #require(try await hostile.reapply(.hosts))
    #expect(place.failed && place.line.contains("symbolic link"), "\(place.line)")
    #expect(!FileManager.default.fileExists(atPath: nologin.path))
  }

  @Test("A copy in lists/ replaced by a FIFO or a link: root's reapply ends, names it, reads nothing through it")
  func linkedCopy() async throws {
    let hostile = try await Hostile.make()
    defer { hostile.remove() }
    let lists = hostile.data.lists
    let secret = hostile.places.file("shadow")
    try Data("root:x:0:0::/root:/bin/sh\n".utf8).write(to: secret)
    // Every file of lists/ (the copy and its block set file) becomes a FIFO or a link to the secret,
    // and the profile's block set file goes, so the copies are read.
    for (index, name) in try FileManager.default.contentsOfDirectory(atPath: lists.path).sorted().enumerated() {
      let path = lists.appending(path: name).path
      try FileManager.default.removeItem(atPath: path)
      if index % 2 == 0 {
        #expect(mkfifo(path, 0o600) == 0)
      } else {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret.path)
      }
    }
    try FileManager.default.removeItem(at: hostile.data.profiles)
    let started = ContinuousClock.now
    let place = try await hostile.reapply(.hosts)
    #expect(ContinuousClock.now - started < .seconds(20), "no FIFO was opened for reading")
    let refused = try #require(place)
    #expect(
      refused.failed && (refused.line.contains("symbolic link") || refused.line.contains("FIFO")), "\(refused.line)")
    #expect(!(try String(contentsOfFile: hostile.place(.hosts), encoding: .utf8)).contains("root"))
    #expect(!FileManager.default.fileExists(atPath: secret.path + ".blockset"))
  }
}
