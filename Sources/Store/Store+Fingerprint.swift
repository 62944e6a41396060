import Blocklists
import Crypto
import Files
import Foundation

extension Store {

  /// A digest of what a profile compiles from: each source's id, checksum and forced format, the rules,
  /// the engine and the block set file's format. Equal fingerprints mean equal compiled block sets.
  public static func fingerprint(
    _ inputs: [(id: Int64, sha256: String, format: InputFormat?)], rules: RuleSet
  ) -> String {
    var text = "engine \(Compiler.engineVersion) blockset \(CompiledList.archiveVersion)\n"
    for input in inputs { text += "source \(input.id) \(input.sha256) \(input.format?.rawValue ?? "auto")\n" }
    for rule in rules.allow { text += "allow \(rule.kind.rawValue) \(rule.pattern)\n" }
    for rule in rules.deny { text += "deny \(rule.kind.rawValue) \(rule.pattern)\n" }
    return SHA256.hash(data: Data(text.utf8)).hexString
  }

  /// The fingerprint of a profile's current inputs: its enabled sources that have a saved copy, in the
  /// profile's order, and its rules.
  public func currentFingerprint(of profile: Profile) throws(StoreError) -> String {
    try snapshot(of: profile.name).fingerprint
  }
}
