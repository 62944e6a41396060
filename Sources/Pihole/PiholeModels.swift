import Foundation

/// One adlist of a Pi-hole (`/api/lists`).
public struct PiholeList: Sendable, Hashable, Codable {
  /// The list's URL (or `file:///…`).
  public var address: String
  /// `block` or `allow`.
  public var type: String
  /// Its comment (SaneHosts marks the lists it added here).
  public var comment: String?
  /// Whether it is enabled.
  public var enabled: Bool
  /// The Pi-hole's id.
  public var id: Int
  /// Domains it held at the last gravity run.
  public var number: Int
  /// 1 updated, 2 unchanged, 3 cached copy used, 4 failed (0: never run).
  public var status: Int
  /// When gravity last downloaded it (nil: never).
  public var dateUpdated: Date?
  /// Lines gravity could not use at its last run.
  public var invalidDomains: Int = 0

  /// Creates a list as the Pi-hole would describe it.
  public init(
    address: String, type: String = "block", comment: String? = nil, enabled: Bool = true, id: Int, number: Int = 0,
    status: Int = 0, dateUpdated: Date? = nil, invalidDomains: Int = 0
  ) {
    self.address = address
    self.type = type
    self.comment = comment
    self.enabled = enabled
    self.id = id
    self.number = number
    self.status = status
    self.dateUpdated = dateUpdated
    self.invalidDomains = invalidDomains
  }

  /// The status in words.
  public var statusText: String {
    switch status {
    case 1: "updated"
    case 2: "unchanged"
    case 3: "cached copy used"
    case 4: "failed"
    default: "not yet fetched"
    }
  }
}

/// One allow or deny rule of a Pi-hole (`/api/domains`).
public struct PiholeDomain: Sendable, Hashable, Codable {
  /// The domain or regular expression.
  public var domain: String
  /// `allow` or `deny`.
  public var type: String
  /// `exact` or `regex`.
  public var kind: String
  /// Its comment.
  public var comment: String?
  /// Whether it is enabled.
  public var enabled: Bool
  /// The Pi-hole's id.
  public var id: Int

  /// Creates an entry.
  public init(domain: String, type: String, kind: String, comment: String?, enabled: Bool, id: Int) {
    self.domain = domain
    self.type = type
    self.kind = kind
    self.comment = comment
    self.enabled = enabled
    self.id = id
  }
}

/// What `/api/search/{domain}` found: the rules and the adlists that match a name.
public struct PiholeSearch: Sendable, Hashable, Codable {
  /// Allow and deny rules matching the name.
  public var domains: [PiholeDomain]
  /// Each adlist entry that matches: the list's address and the entry as written in it.
  public var gravity: [Match]

  /// One adlist entry matching the name.
  public struct Match: Sendable, Hashable, Codable {
    /// The list's address.
    public var address: String
    /// The entry as the list has it (`||example.com^` stays raw).
    public var entry: String
    /// `block` or `allow`.
    public var type: String
  }

  /// Whether the Pi-hole blocks the name: a deny rule or a block list matches and no allow rule does.
  public var blocks: Bool {
    let allowed = domains.contains { $0.type == "allow" && $0.enabled } || gravity.contains { $0.type == "allow" }
    let denied = domains.contains { $0.type == "deny" && $0.enabled } || gravity.contains { $0.type == "block" }
    return denied && !allowed
  }
}

/// The Pi-hole's state in brief (`/api/info/version`, `/api/stats/summary`).
public struct PiholeSummary: Sendable, Hashable, Codable {
  /// FTL's version, if known.
  public var version: String?
  /// Domains on the gravity lists.
  public var domainsBeingBlocked: Int?
  /// Queries today.
  public var totalQueries: Int?
  /// Queries blocked today.
  public var blockedQueries: Int?
  /// When gravity last ran.
  public var gravityUpdated: Date?
  /// Whether blocking is on: `enabled`, `disabled`, `failed` (nil when the Pi-hole does not say).
  public var blocking: String?
}

/// The outcome of a batch (`processed`): items applied and items refused.
public struct PiholeProcessed: Sendable, Hashable, Codable {
  /// Items that were applied.
  public var success: [String]
  /// Items that were refused, with the reason.
  public var errors: [PiholeError.ItemError]
}

/// Reading Pi-hole JSON leniently: absent keys, nulls and duplicate keys are all fine.
enum JSONValue {
  static func object(_ data: Data) throws(PiholeError) -> [String: Any] {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw .unexpectedReply(
        detail: "not a JSON object: \(printable(String(decoding: data.prefix(120), as: UTF8.self)))")
    }
    return object
  }

  static func int(_ value: Any?) -> Int? {
    if let number = value as? NSNumber { return number.intValue }
    if let text = value as? String { return Int(text) }
    return nil
  }

  static func bool(_ value: Any?) -> Bool? {
    if let bool = value as? Bool { return bool }
    if let number = value as? NSNumber { return number.intValue != 0 }
    return nil
  }

  /// A string field, made safe to print: a Pi-hole's text never reaches a terminal with control
  /// characters in it.
  static func string(_ value: Any?) -> String? { (value as? String).map(printable) }

  /// The text without control characters (C0, DEL, C1): a tab becomes a space, the rest are dropped, so
  /// no escape sequence, bell or carriage return from a reply can act on the user's terminal.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var clean = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\t" {
        clean.append(" ")
      } else if !isControl(scalar) {
        clean.append(scalar)
      }
    }
    return String(clean)
  }

  /// Whether a scalar is a control character: U+0000–U+001F, U+007F or U+0080–U+009F.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  static func list(_ item: [String: Any]) -> PiholeList? {
    guard let address = string(item["address"]) else { return nil }
    return PiholeList(
      address: address, type: string(item["type"]) ?? "block", comment: string(item["comment"]),
      enabled: bool(item["enabled"]) ?? true, id: int(item["id"]) ?? 0, number: int(item["number"]) ?? 0,
      status: int(item["status"]) ?? 0,
      dateUpdated: int(item["date_updated"]).flatMap { $0 > 0 ? Date(timeIntervalSince1970: Double($0)) : nil },
      invalidDomains: int(item["invalid_domains"]) ?? 0)
  }

  static func domain(_ item: [String: Any]) -> PiholeDomain? {
    guard let domain = string(item["domain"]) else { return nil }
    return PiholeDomain(
      domain: domain, type: string(item["type"]) ?? "deny", kind: string(item["kind"]) ?? "exact",
      comment: string(item["comment"]), enabled: bool(item["enabled"]) ?? true, id: int(item["id"]) ?? 0)
  }

  static func processed(_ object: [String: Any]) -> PiholeProcessed {
    let processed = object["processed"] as? [String: Any] ?? [:]
    let success = (processed["success"] as? [[String: Any]] ?? []).compactMap { string($0["item"]) }
    let errors = (processed["errors"] as? [[String: Any]] ?? []).map {
      PiholeError.ItemError(item: string($0["item"]) ?? "?", error: string($0["error"]) ?? "unknown error")
    }
    return PiholeProcessed(success: success, errors: errors)
  }
}
