import Apply
import Blocklists
import Crypto
import Files
import Foundation
import Store

/// A profile's compiled list in a subscription format, with a stable ETag, rendered once per change.
///
/// The list is rendered when a source copy, the profile's sources or its rules change (the cache key is
/// a fingerprint of those), so a Pi-hole polling with `If-None-Match` costs a few queries and a 304.
actor ListCache {
  /// A subscription format.
  enum Format: String, CaseIterable, Sendable {
    /// `0.0.0.0 name` lines.
    case hosts
    /// One name per line.
    case domains
    /// `||name^` lines.
    case adblock

    /// The file extension in the URL: `.hosts`, `.txt`, `.adblock`.
    var fileExtension: String {
      switch self {
      case .hosts: "hosts"
      case .domains: "txt"
      case .adblock: "adblock"
      }
    }

    var outputFormat: OutputFormat {
      switch self {
      case .hosts: .hosts
      case .domains: .domains
      case .adblock: .adblock
      }
    }
  }

  /// A rendered list.
  struct Rendered: Sendable {
    /// The bytes.
    var body: [UInt8]
    /// The ETag (quoted).
    var etag: String
    /// When its inputs last changed.
    var modified: Date
  }

  private let store: Store
  private var entries: [String: (fingerprint: String, rendered: Rendered)] = [:]
  /// How many times a list was rendered (for tests: a 304 must not render).
  private(set) var renders = 0

  init(store: Store) { self.store = store }

  /// The list of `profile` in `format`, rendered only when its inputs changed.
  func list(profile name: String, format: Format) async throws -> Rendered {
    let profile = try store.profile(name)
    let members = try store.sources(in: profile.name).filter(\.enabled)
    let rules = try store.rules(in: profile.name)
    var key = "\(profile.id)\n"
    for member in members {
      key += "\(member.source.key) \(member.source.sha256 ?? "-") \(member.source.format?.rawValue ?? "")\n"
    }
    for rule in rules { key += "\(rule.action.rawValue) \(rule.text)\n" }
    let fingerprint = SHA256.hash(data: Data(key.utf8)).hexString
    let cacheKey = "\(profile.name).\(format.rawValue)"
    if let entry = entries[cacheKey], entry.fingerprint == fingerprint { return entry.rendered }

    let modified = members.compactMap(\.source.lastChange).max() ?? profile.createdAt
    let set = try await ProfileList.compile(profile: profile.name, in: store)
    let renderer = Renderer(
      format: format.outputFormat, title: "SaneHosts profile \(profile.name)", date: modified)
    var sink = ByteSink()
    try await renderer.renderConcurrently(set.list, to: &sink)
    let body = sink.memory
    let rendered = Rendered(
      body: body, etag: "\"\(SHA256.hash(data: body).hexString.prefix(32))\"", modified: modified)
    entries[cacheKey] = (fingerprint, rendered)
    renders += 1
    return rendered
  }

}
