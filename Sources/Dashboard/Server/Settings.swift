import Apply
import Files
import Foundation
import Store
import UseCases

/// The dashboard's saved choices: how to test and where to apply. No secret is ever kept here.
struct Settings: Codable, Sendable, Hashable {
  /// The default probe: system, dns or https.
  var probe = "system"
  /// The default DNS server for the dns probe (IP or IP:port), empty for none.
  var resolver = ""
  /// Seconds per probe.
  var timeout = 2.0
  /// The default apply target: a name of `Target.all`.
  var target = "hosts"

  /// The settings file: `DATA/dashboard.json`.
  static func file(in data: DataDirectory) -> URL { data.url.appendingPathComponent("dashboard.json") }

  /// The saved settings, or the defaults when none are saved (or the file is unreadable).
  static func load(from data: DataDirectory) -> Settings {
    guard let bytes = try? Data(contentsOf: file(in: data)),
      let settings = try? JSONCoding.decode(Settings.self, from: bytes)
    else { return Settings() }
    return settings
  }

  /// Saves the settings (atomically, 0600).
  func save(to data: DataDirectory) throws {
    let url = Self.file(in: data)
    try JSONCoding.encode(self, pretty: true).write(to: url, options: .atomic)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
  }

  /// Some fields to change; the others keep their saved values.
  struct Change: Decodable, Sendable {
    var probe: String?
    var resolver: String?
    var timeout: Double?
    var target: String?

    /// Reads the timeout as a number or, from a form, as text (empty: unchanged).
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      probe = try container.decodeIfPresent(String.self, forKey: .probe)
      resolver = try container.decodeIfPresent(String.self, forKey: .resolver)
      target = try container.decodeIfPresent(String.self, forKey: .target)
      timeout = try container.decodeSecondsIfPresent(forKey: .timeout)
    }

    private enum CodingKeys: String, CodingKey { case probe, resolver, timeout, target }
  }

  /// These settings with the given fields changed.
  func applying(_ change: Change) -> Settings {
    var settings = self
    if let probe = change.probe { settings.probe = probe }
    if let resolver = change.resolver { settings.resolver = resolver.trimmingCharacters(in: .whitespaces) }
    if let timeout = change.timeout { settings.timeout = timeout }
    if let target = change.target { settings.target = target }
    return settings
  }

  /// Checks every field, naming the bad one.
  func validated() throws(DashboardError) -> Settings {
    guard ["system", "dns", "https"].contains(probe) else {
      throw .badRequest("Unknown probe \"\(probe)\": use system, dns or https.")
    }
    guard TestPlan.timeout(seconds: timeout) != nil else {
      throw .badRequest("The timeout must be \(TestPlan.timeoutRule), not \(timeout).")
    }
    guard Target(name: target) != nil else {
      throw .badRequest("Unknown target \"\(target)\": use \(Target.names).")
    }
    return self
  }
}
