import Apply
import BlockerTest
import Blocklists
import Foundation
import Store

/// The domains a blocker test probes: the registry (built in, plus the user's own), narrowed to the
/// categories asked for, plus a sample of a source's or a profile's names. `sanehosts test` and the
/// dashboard's Test page both plan here.
public struct TestPlan: Sendable {
  /// A sample of names to test besides (or instead of) the registry.
  public enum Sample: Sendable, Hashable {
    /// Names of a source's last good copy (its key).
    case source(String)
    /// Names of a profile's block set, as applied (its rules included).
    case profile(String)
  }

  /// Categories to keep (case-insensitive; empty: all).
  public var categories: [String]
  /// The sample, if any.
  public var sample: Sample?
  /// Names in the sample.
  public var sampleCount: Int
  /// The seed that picks them: the same seed picks the same names.
  public var seed: UInt64
  /// Test only the sample (and the control domains), not the registry.
  public var sampleOnly: Bool

  /// Creates a plan; by default the whole registry and no sample.
  public init(
    categories: [String] = [], sample: Sample? = nil, sampleCount: Int = 50, seed: UInt64 = 1, sampleOnly: Bool = false
  ) {
    self.categories = categories.filter { !$0.isEmpty }
    self.sample = sample
    self.sampleCount = sampleCount
    self.seed = seed
    self.sampleOnly = sampleOnly
  }

  /// The registry to probe.
  public func registry(in store: Store) async throws -> Registry {
    var registry = try Registry.builtIn(with: store)
    if !categories.isEmpty {
      let known = Set(registry.categories.map { $0.lowercased() })
      if let unknown = categories.first(where: { !known.contains($0.lowercased()) }) {
        throw TestPlanError.unknownCategory(unknown, known: registry.categories)
      }
      registry = registry.filtered(categories: categories)
    }
    guard let sample else { return registry }
    let label: String
    let names: [String]
    switch sample {
    case .source(let key):
      guard let source = try store.allSources().first(where: { $0.key == key }) else {
        throw StoreError.notFound(kind: "source", name: key, known: try store.allSources().map(\.key))
      }
      (label, names) = (key, await store.names(of: source))
    case .profile(let name):
      // The profile's block set, as applied: its file when current, else merged now.
      (label, names) = (name, try await ProfileList.compile(profile: name, in: store).list.allNames.sorted())
    }
    let domains = Registry.sample(names, count: sampleCount, seed: seed).map {
      TestDomain(hostname: $0, category: "Sample", provider: label)
    }
    return sampleOnly ? Registry(registry.controls + domains) : registry.adding(domains)
  }
}

/// What stops a test plan.
public enum TestPlanError: Error, Sendable, Hashable {
  /// No category of the registry has this name.
  case unknownCategory(String, known: [String])
  /// A host name that does not resolve (the Pi-hole's, for its DNS server).
  case unknownHost(String)
}

extension TestPlanError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .unknownCategory(let name, _): "Unknown category \"\(name)\"."
    case .unknownHost(let host): "Cannot find the address of \(host)."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .unknownCategory(_, let known): "Use one of \(known.joined(separator: ", "))."
    case .unknownHost: "Check the name, or give the DNS server's IP address instead."
    }
  }
}

extension TestPlan {
  /// The longest wait for one answer a probe or a verification may be given, in seconds.
  public static let longestTimeout = 60.0

  /// `seconds` as a probe's timeout, or nil when it is not in 0 < t ≤ 60 (`timeoutRule` says so).
  public static func timeout(seconds: Double) -> Duration? {
    guard seconds > 0 && seconds <= longestTimeout else { return nil }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// The rule, for messages: "between 0 and 60 seconds".
  public static let timeoutRule = "between 0 and \(Int(longestTimeout)) seconds"
}
