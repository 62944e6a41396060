import Apply
import BlockerTest
import Blocklists
import Catalog
import DNS
import Downloads
import Foundation
import HTTPTypes
import Hummingbird
import Loading
import Locking
import Store
import Updates
import UseCases

/// Request bodies of the API (JSON, or the same fields from an HTML form).
enum APIRequest {
  /// A list to add: by URL (with an optional key and format) or by catalog id.
  struct AddSource: Codable, Sendable {
    var url: String?
    var key: String?
    var format: String?
    var catalog: String?
  }
  /// Whether a source is used.
  struct Enabled: Codable, Sendable { var enabled: Flag? }
  /// An allow or deny rule.
  struct Rule: Codable, Sendable {
    var kind: String
    var pattern: String
    /// How long an allow rule lasts (`1h`, `1d`; empty or absent: always).
    var `for`: String?
    /// The page a plain form goes back to (a path of this dashboard), else the Sources page.
    var back: String?
  }
  /// A profile's name.
  struct Profile: Codable, Sendable { var name: String }
  /// An update: every source even if unchanged with `force`.
  struct Update: Codable, Sendable { var force: Flag? }
  /// An apply or a preview.
  struct Apply: Codable, Sendable {
    var target: String?
    var force: Flag?
  }
  /// A backup to restore.
  struct Restore: Codable, Sendable {
    var target: String?
    var id: String
  }
}
