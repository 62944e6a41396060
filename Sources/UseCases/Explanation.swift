import BlockerTest
import Blocklists
import DNS
import Foundation
import Store

/// Why a name is blocked or not in a profile (`sanehosts why`, the dashboard's Why? box): every source
/// that lists it or a parent of it, with the entry's line; each allow and deny rule that applies and the
/// one that decides; whether it is a public suffix; and how each output format writes it.
public struct Explanation: Codable, Sendable, Hashable {
  /// The answer in one word.
  public enum Verdict: String, Codable, Sendable, Hashable {
    /// In the profile's block set: every format blocks it.
    case blocked
    /// Not in the set itself, but a blocked parent covers it in the formats that block subdomains.
    case coveredByParent
    /// Listed (or denied), but an allow rule takes it out.
    case allowed
    /// Listed by no enabled source and denied by no rule.
    case notBlocked
    /// Not a valid name.
    case invalid
  }

  /// A source that lists the name or one of its parents.
  public struct Listing: Codable, Sendable, Hashable {
    /// The source's key and display name.
    public var source: String
    public var sourceName: String
    /// The format of the entry's line (else the source's: forced, or the one most lines were in).
    public var format: String?
    /// The name it lists: the name itself or a parent.
    public var matched: String
    /// Whether it lists the name itself.
    public var exact: Bool
    /// The entry's line in the source's last good copy (from 1) and the line as written, when known.
    public var line: Int?
    public var text: String?
  }

  /// An allow or deny rule of the profile that applies to the name or a parent.
  public struct RuleMatch: Codable, Sendable, Hashable {
    /// The rule as written (`doubleclick.net`, `=ads.example.com`, `/^ad/`).
    public var rule: String
    /// Whether it allows (else denies).
    public var allows: Bool
    /// Where it was added.
    public var origin: String
    /// The name it matches: the name itself or a parent.
    public var matched: String
    /// Whether it is the rule that decides the name.
    public var decides: Bool
  }

  /// How one output format writes the name.
  public struct Output: Codable, Sendable, Hashable {
    /// How it ends up.
    public enum Written: String, Codable, Sendable, Hashable {
      /// Written as itself.
      case asItself
      /// Left out because a blocked parent, written instead, covers it.
      case coveredByParent
      /// Blocked in the set but left out of this format (`reason` says why).
      case leftOut
      /// Let through by an exception for an allow rule, at the name or a parent (`server=/name/#`, a
      /// transparent zone, `rpz-passthru.`, `@@||name^`).
      case excepted
      /// Not blocked.
      case notWritten
    }

    /// The output format (`hosts`, `dnsmasq`, …).
    public var format: String
    public var written: Written
    /// The parent that covers it.
    public var parent: String?
    /// Why it is left out or not written.
    public var reason: String?
  }

  /// The name as asked.
  public var query: String
  /// The normalised (ASCII) name; nil when invalid.
  public var name: String?
  /// The name in Unicode, when it has international labels.
  public var unicode: String?
  /// The validator's reason, when invalid.
  public var invalidReason: String?
  public var verdict: Verdict
  /// One line: the verdict and what decides it.
  public var summary: String
  /// Sources listing the name (first) or a parent (nearer parents first), in profile order.
  public var listings: [Listing]
  /// Rules that apply, allow rules first.
  public var rules: [RuleMatch]
  /// What a DNS server answered for the name, when one was asked (`why --resolver`): the blocker test's
  /// verdict, with the CNAME chain its answer followed and any leak.
  public var answer: ServerAnswer? = nil

  /// A DNS server's answer for an explained name.
  public struct ServerAnswer: Codable, Sendable, Hashable {
    /// The server asked (`127.0.0.1:53`).
    public var server: String
    /// blocked, reachable, leaking or inconclusive.
    public var outcome: Outcome
    /// Why, as the blocker test says it.
    public var reason: String
    /// The CNAME chain, the name first, when the answer had one.
    public var chain: [String]?
  }
  /// Whether the name itself is a public suffix (left out of the formats that cover subdomains).
  public var publicSuffix: Bool
  /// Each output format, hosts first.
  public var outputs: [Output]

  /// Whether any format blocks the name.
  public var isBlocked: Bool { verdict == .blocked || verdict == .coveredByParent }

  /// The formats grouped by how they write the name, in order: (“written”, [hosts, domains]),
  /// (“covered by example.com”, [adblock, …]), (“left out (a public suffix: …)”, […]), (“not written”, […]).
  public var outputGroups: [(how: String, formats: [String])] {
    var groups: [(how: String, formats: [String])] = []
    for output in outputs {
      let how: String =
        switch output.written {
        case .asItself: "written"
        case .coveredByParent: "covered by \(output.parent ?? "a parent")"
        case .leftOut: "left out (\(output.reason ?? ""))"
        case .excepted: "let through (\(output.reason ?? "an exception"))"
        case .notWritten: "not written"
        }
      if let index = groups.firstIndex(where: { $0.how == how }) {
        groups[index].formats.append(output.format)
      } else {
        groups.append((how, [output.format]))
      }
    }
    return groups
  }
}
