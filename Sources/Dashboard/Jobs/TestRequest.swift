import BlockerTest
import DNS
import Foundation
import UseCases

/// What the Test page (or a script) asks for: probe, resolver, categories, timeout.
struct TestRequest: Codable, Sendable, Hashable {
  /// system, dns or https (default: the settings' probe).
  var probe: String?
  /// The DNS server for `dns`: IP or IP:port.
  var resolver: String?
  /// Only these categories (empty: all).
  var category: [String]?
  /// Seconds per probe.
  var timeout: Double?

  init(probe: String? = nil, resolver: String? = nil, category: [String]? = nil, timeout: Double? = nil) {
    self.probe = probe
    self.resolver = resolver
    self.category = category
    self.timeout = timeout
  }

  /// Reads `category` as a list or, from a form with one box ticked, a single value; an empty timeout
  /// field means the default.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    probe = try container.decodeIfPresent(String.self, forKey: .probe)
    resolver = try container.decodeIfPresent(String.self, forKey: .resolver)
    if let list = try? container.decodeIfPresent([String].self, forKey: .category) {
      category = list
    } else {
      category = try container.decodeIfPresent(String.self, forKey: .category).map { [$0] }
    }
    timeout = try container.decodeSecondsIfPresent(forKey: .timeout)
  }

  /// The probe kind, checked: the one asked for, else `dns` when the request names a DNS server (as
  /// on the command line), else `fallback`.
  func probeKind(default fallback: ProbeKind) throws(DashboardError) -> ProbeKind {
    var requested: ProbeKind?
    if let probe, !probe.isEmpty {
      guard let kind = ProbeKind(rawValue: probe) else {
        throw .badRequest("Unknown probe \"\(probe)\": use system, dns or https.")
      }
      requested = kind
    }
    return TestPlan.probe(requested: requested, namesServer: !(resolver ?? "").isEmpty, fallback: fallback)
  }

  /// The timeout, checked (`TestPlan.timeout(seconds:)`).
  func timeoutDuration(default fallback: Double) throws(DashboardError) -> Duration {
    let seconds = timeout ?? fallback
    guard let duration = TestPlan.timeout(seconds: seconds) else {
      throw .badRequest("The timeout must be \(TestPlan.timeoutRule), not \(seconds).")
    }
    return duration
  }
}
