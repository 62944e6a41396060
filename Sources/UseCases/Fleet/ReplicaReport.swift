import BlockerTest
import Foundation
import Store

/// What one replica serves and whether its own answers match the profile: a row of `fleet status`, the
/// end of `fleet sync`, and the dashboard's Fleet page.
public struct ReplicaReport: Sendable, Hashable, Codable {
  /// The verdict from the replica's answers.
  public enum Verdict: String, Sendable, Hashable, Codable {
    /// Every name asked was answered as the profile has it, and the controls were reachable.
    case verified
    /// It answers, but not as the profile has it (stale, refused a transfer, blocking switched off).
    case differs
    /// Its answers match what it was last given, but it has not been given the profile as it is now
    /// (changes not synced yet, lists or rules still to send).
    case behind
    /// It did not answer at all.
    case unreachable
    /// It answered but refused SaneHosts: a Pi-hole that took no password, or another one.
    case refused
  }

  /// The replica's name in the fleet.
  public var name: String
  /// How it is fed.
  public var feed: Replica.Feed
  /// What is asked: its DNS server, or its Pi-hole.
  public var address: String
  /// The verdict.
  public var verdict: Verdict
  /// What it serves: the policy zone's serial, or the Pi-hole's lists and gravity.
  public var serves: String
  /// The zone's serial it answers, where it answers the zone's SOA.
  public var serial: UInt32?
  /// How far behind the profile it is, when it is.
  public var behind: String?
  /// Why, in one sentence: the verification's summary or the failure.
  public var detail: String
  /// Names answered otherwise than the profile has them, each with its answer (`ads.example: 93.184.215.14`),
  /// at most `ReplicaReport.missesShown`.
  public var misses: [String] = []
  /// Whether every name asked was answered as the profile has it (also when the verdict is `behind`).
  public var answersMatch = false
  /// Names asked through it.
  public var asked: Int
  /// How long the check took, in seconds.
  public var seconds: Double

  /// A report.
  public init(
    name: String, feed: Replica.Feed, address: String, verdict: Verdict, serves: String, serial: UInt32? = nil,
    behind: String? = nil, detail: String, asked: Int = 0, seconds: Double = 0
  ) {
    self.name = name
    self.feed = feed
    self.address = address
    self.verdict = verdict
    self.serves = serves
    self.serial = serial
    self.behind = behind
    self.detail = detail
    self.asked = asked
    self.seconds = seconds
  }

  /// How many wrongly answered names a report names.
  public static let missesShown = 10
}
