import Blocklists
import Downloads
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Adding a source, checked once")
struct SourceAdditionTests {
  @Test("A URL with a name, format and mirror is added once; again, it is there already")
  func addOnce() throws {
    let directory = try TemporaryDirectory(prefix: "sanehosts-addition")
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    var addition = SourceAddition(" https://lists.website/ads.txt ")
    (addition.name, addition.format, addition.mirrors) = ("mine", .hosts, ["https://mirror.website/ads.txt"])
    guard case .added(let source) = try addition.add(in: store) else {
      Issue.record("not added")
      return
    }
    #expect(source.key == "mine" && source.name == "mine" && source.format == .hosts)
    #expect(source.mirrors == ["https://mirror.website/ads.txt"])
    #expect(try addition.add(in: store) == .alreadyThere(key: "mine", location: "https://lists.website/ads.txt"))
  }

  @Test("Refused before anything is stored: a path where only URLs are taken, a bad mirror, another scheme")
  func refused() throws {
    var remote = SourceAddition("/etc/passwd")
    remote.onlyURLs = true
    #expect(throws: SourceAdditionError.notURL("/etc/passwd")) { try remote.source() }
    var empty = SourceAddition(" ")
    empty.onlyURLs = true
    #expect(throws: SourceAdditionError.empty) { try empty.source() }
    var mirror = SourceAddition("https://lists.website/a.txt")
    mirror.mirrors = ["ftp://x/y"]
    #expect(throws: SourceAdditionError.badMirror("ftp://x/y")) { try mirror.source() }
    #expect(SourceAdditionError.badMirror("ftp://x/y").errorDescription?.contains("is not an http(s) URL") == true)
    #expect(throws: StoreError.self) { try SourceAddition("gopher://lists.website/a").source() }
    // Plain http to another machine: the download policy refuses it now, not at the first update.
    #expect(throws: (any Error).self) { try SourceAddition("http://lists.website/a.txt").source() }
  }
}
