import Apply
import Foundation
import Store
import TestSupport
import Testing

@testable import Dashboard

@Suite("Settings")
struct SettingsTests {
  @Test("Saved 0600 and loaded back; a missing or broken file gives the defaults")
  func roundTrip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = DataDirectory(url: directory.url)
    #expect(Settings.load(from: data) == Settings())
    let settings = Settings(probe: "dns", resolver: "10.0.0.1", timeout: 3, target: "bind")
    try settings.save(to: data)
    #expect(Settings.load(from: data) == settings)
    let mode = try FileManager.default.attributesOfItem(atPath: Settings.file(in: data).path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    try Data("{not json".utf8).write(to: Settings.file(in: data))
    #expect(Settings.load(from: data) == Settings())
  }

  @Test("A change touches only the fields it names; a bad timeout text is named")
  func change() throws {
    let saved = Settings(probe: "dns", resolver: "10.0.0.1", timeout: 3, target: "bind")
    let change = try JSONDecoder().decode(
      Settings.Change.self, from: Data(#"{"resolver":" 10.0.0.2 ","timeout":""}"#.utf8))
    #expect(saved.applying(change) == Settings(probe: "dns", resolver: "10.0.0.2", timeout: 3, target: "bind"))
    #expect(throws: DashboardError.self) {
      try JSONDecoder().decode(Settings.Change.self, from: Data(#"{"timeout":"soon"}"#.utf8))
    }
  }

  @Test("Each bad field is named")
  func validation() {
    #expect(throws: DashboardError.self) { try Settings(probe: "x").validated() }
    #expect(throws: DashboardError.self) { try Settings(timeout: 0).validated() }
    #expect(throws: DashboardError.self) { try Settings(timeout: 61).validated() }
    #expect(throws: DashboardError.self) { try Settings(target: "nginx").validated() }
    #expect((try? Settings().validated()) == Settings())
    for target in Target.all { #expect((try? Settings(target: target.name).validated()) != nil) }
    // The message names every target of the table (it once named 5 of the 7).
    do {
      _ = try Settings(target: "nginx").validated()
    } catch {
      for target in Target.all { #expect(error.localizedDescription.contains(target.name)) }
    }
  }
}
