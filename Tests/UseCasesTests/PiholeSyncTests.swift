import Foundation
import Pihole
import Store
import Testing

@testable import UseCases

@Suite("Planning a Pi-hole sync")
struct PiholeSyncTests {
  static func source(_ id: Int64, _ location: String, status: Source.Status = .updated, changed: Date? = nil)
    -> Source
  {
    var source = Source(id: id, key: "s\(id)", name: "s\(id)", location: location)
    source.status = status
    source.message = status == .failed ? "HTTP 500" : nil
    source.lastChange = changed
    return source
  }

  @Test("Adds what is missing, keeps what is there, leaves out local files and failing sources, says why")
  func plan() {
    let day = Date(timeIntervalSince1970: 1_800_000_000)
    let members = [
      ProfileSource(source: Self.source(1, "https://a.website/list", changed: day), enabled: true),
      ProfileSource(source: Self.source(2, "https://b.website/list", changed: day), enabled: true),
      ProfileSource(source: Self.source(3, "file:///srv/local.txt"), enabled: true),
      ProfileSource(source: Self.source(4, "https://c.website/list", status: .failed), enabled: true),
      ProfileSource(source: Self.source(5, "https://off.website/list"), enabled: false),
    ]
    let existing = [
      PiholeList(address: "https://a.website/list", id: 1, dateUpdated: day.addingTimeInterval(0.9)),
      PiholeList(address: "https://mine.website/list", comment: "mine", id: 2),
    ]
    let plan = PiholeSync(profile: "home", sources: members, existing: existing, removeDropped: false)
    #expect(plan.comment == "Added by SaneHosts (profile home)")
    #expect(plan.wanted == ["https://a.website/list", "https://b.website/list"])
    #expect(plan.toAdd == ["https://b.website/list"])
    #expect(plan.kept == 1)
    #expect(plan.toRemove.isEmpty)
    #expect(plan.changed.isEmpty, "a change in the second of the last download is not newer than it")
    #expect(
      plan.skipped == [
        .init(location: "file:///srv/local.txt", reason: .localFile),
        .init(location: "https://c.website/list", reason: .failing("HTTP 500")),
      ])
    #expect(plan.needsGravity)
  }

  @Test("Removes only this profile's own dropped lists, and only when asked; a failing one stays")
  func removeDropped() {
    let comment = "Added by SaneHosts (profile home)"
    let existing = [
      PiholeList(address: "https://dropped.website/list", comment: comment, id: 1),
      PiholeList(address: "https://other.website/list", comment: "Added by SaneHosts (profile kids)", id: 2),
      PiholeList(address: "https://c.website/list", comment: comment, id: 3),
      PiholeList(address: "https://yours.website/list", comment: nil, id: 4),
    ]
    let members = [ProfileSource(source: Self.source(4, "https://c.website/list", status: .failed), enabled: true)]
    #expect(PiholeSync(profile: "home", sources: members, existing: existing, removeDropped: false).toRemove.isEmpty)
    let plan = PiholeSync(profile: "home", sources: members, existing: existing, removeDropped: true)
    #expect(plan.toRemove == ["https://dropped.website/list"])
  }

  @Test("A list whose content changed since the Pi-hole downloaded it, or never downloaded, needs gravity")
  func changed() {
    let day = Date(timeIntervalSince1970: 1_800_000_000)
    let members = [
      ProfileSource(
        source: Self.source(1, "https://a.website/list", changed: day.addingTimeInterval(5)), enabled: true),
      ProfileSource(source: Self.source(2, "https://b.website/list", changed: day), enabled: true),
    ]
    let existing = [
      PiholeList(address: "https://a.website/list", id: 1, dateUpdated: day),
      PiholeList(address: "https://b.website/list", id: 2, dateUpdated: nil),
    ]
    let plan = PiholeSync(profile: "p", sources: members, existing: existing, removeDropped: false)
    #expect(plan.toAdd.isEmpty)
    #expect(plan.changed == ["https://a.website/list", "https://b.website/list"])
    #expect(plan.needsGravity)
    let settled = PiholeSync(
      profile: "p", sources: members,
      existing: existing.map {
        var list = $0
        list.dateUpdated = day.addingTimeInterval(10)
        return list
      },
      removeDropped: false)
    #expect(!settled.needsGravity)
  }
}
