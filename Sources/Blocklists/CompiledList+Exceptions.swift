import Foundation

extension CompiledList {
  /// The exceptions the allow rules could need in a covering format: one per name-shaped allow rule, and
  /// an exact one for each listed name that only a regular-expression rule removed.
  public var exceptionCandidates: [Exceptions.Exception] {
    var candidates = rules.allow.compactMap(Exceptions.Exception.init(rule:))
    let named = rules.allow.filter { $0.kind != .regex }
    let hasExpressions = named.count < rules.allow.count
    guard hasExpressions, names.removedCount > 0 else { return candidates }
    let expressions = rules.allow.compactMap { rule -> (RuleSet.Rule, NSRegularExpression)? in
      guard rule.kind == .regex, let expression = try? NSRegularExpression(pattern: rule.pattern) else { return nil }
      return (rule, expression)
    }
    for entry in 0..<names.entryCount where names.isRemoved(entry) {
      let name = names.name(entry)
      guard !named.contains(where: { RuleSet.matches($0, name) }) else { continue }
      let range = NSRange(location: 0, length: name.utf16.count)
      if let (rule, _) = expressions.first(where: { $0.1.firstMatch(in: name, range: range) != nil }) {
        candidates.append(.init(name: name, scope: .exact, rule: rule.text))
      }
    }
    return candidates
  }

  /// Whether `name` is written as an entry of its own in `format`: listed and not allowed, and in a
  /// covering format neither a public suffix nor (RPZ) too long for the zone.
  public func isWritten(_ name: String, format: OutputFormat, publicSuffixes: PublicSuffixList = .bundled) -> Bool {
    guard let entry = names.entry(of: name), !names.isRemoved(entry) else { return false }
    guard format.coversSubdomains else { return true }
    if format == .rpz && name.utf8.count > Renderer.rpzNameLimit { return false }
    return !publicSuffixes.isPublicSuffix(name)
  }

  /// The exceptions `format` needs for this list's allow rules.
  public func exceptions(for format: OutputFormat, publicSuffixes: PublicSuffixList = .bundled) -> Exceptions {
    let below = Set(subdomainBlocks(for: format, publicSuffixes: publicSuffixes).written)
    guard format.coversSubdomains, !rules.allow.isEmpty || !below.isEmpty else {
      return Exceptions(format: format, candidates: [], isWritten: { _ in false })
    }
    return Exceptions(format: format, candidates: exceptionCandidates, below: below) {
      isWritten($0, format: format, publicSuffixes: publicSuffixes)
    }
  }
}
