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

  @Test("Each bad field is named")
  func validation() {
    #expect(throws: DashboardError.self) { try Settings(probe: "x").validated() }
    #expect(throws: DashboardError.self) { try Settings(timeout: 0).validated() }
    #expect(throws: DashboardError.self) { try Settings(timeout: 61).validated() }
    #expect(throws: DashboardError.self) { try Settings(target: "nginx").validated() }
    #expect((try? Settings().validated()) == Settings())
    #expect(ApplyTarget.allCases.map(\.rawValue) == ["hosts", "dnsmasq", "dnsmasq-hosts", "unbound", "bind"])
  }
}
