import BlockerTest
import Blocklists
import DNS
import Foundation
import Store

/// The explanations of a profile's names, read from each enabled source's block set file.
public struct Explainer: Sendable {
  /// What `explain` answers.
  public struct Answer: Codable, Sendable, Hashable {
    /// The profile.
    public var profile: String
    /// The enabled sources searched (those with a saved copy).
    public var sources: [String]
    /// Enabled sources without a saved copy yet (never updated), not searched.
    public var missing: [String]
    /// Enabled sources whose saved copy could not be read (not searched: run `update --force`).
    public var unreadable: [String] = []
    /// Whether the profile's compiled block set (what `apply` writes) is current; false after a rule, a
    /// source or an accepted copy changed it: the answers are then what the next compile will block.
    public var compiledCurrent = true
    /// One explanation per name asked, in order.
    public var names: [Explanation]
  }

  private let store: Store
  private let profile: String?
  private let publicSuffixes: PublicSuffixList

  /// An explainer for a profile (nil: the active one).
  public init(store: Store, profile: String? = nil, publicSuffixes: PublicSuffixList = .bundled) {
    self.store = store
    self.profile = profile
    self.publicSuffixes = publicSuffixes
  }

  /// Explains each name: one pass over each enabled source's hashes for all of them and their parents.
  public func explain(_ queries: [String], resolver: ServerAddress? = nil) async throws -> Answer {
    var answer: Answer = try await explain(queries)
    guard let resolver else { return answer }
    // Each valid name asked of the server as the blocker test asks it: A and AAAA, the CNAME chain, leaks.
    let probe = DNSProbe(resolver: Resolver(server: resolver))
    for index in answer.names.indices {
      guard let name = answer.names[index].name else { continue }
      let verdict = await probe.probe(name)
      answer.names[index].answer = Explanation.ServerAnswer(
        server: resolver.description, outcome: verdict.outcome, reason: verdict.reason, chain: verdict.chain)
    }
    return answer
  }

  /// Explains each name from the profile's copies and rules.
  public func explain(_ queries: [String]) async throws -> Answer {
    let snapshot = try store.snapshot(of: profile)
    var rules = try snapshot.ruleSet
    let sources = snapshot.sources.filter(\.enabled).map(\.source)
    let saved = sources.filter { $0.cacheFile != nil && $0.sha256 != nil }

    // Each valid name and its parents, once.
    let normalised: [Result<String, RejectReason>] = queries.map { query in
      var text = query.trimmingCharacters(in: .whitespaces)
      if text.hasSuffix("."), text.count > 1 { text.removeLast() }
      return NameRules.normalize(text)
    }
    var candidates: [String] = []
    var seen = Set<String>()
    for case .success(let name) in normalised {
      for candidate in Self.selfAndParents(name) where seen.insert(candidate).inserted { candidates.append(candidate) }
    }

    let found = await listings(of: candidates, in: saved)
    let (listed, unreadable) = (found.listed, found.unreadable)

    // The lists' own exceptions are allow rules as the engine applies them (`RuleSet.including`).
    rules = rules.including(listExceptions: found.reports)
    let names = zip(queries, normalised).map { query, result -> Explanation in
      switch result {
      case .failure(let reason):
        return Explanation(
          query: query, name: nil, unicode: nil, invalidReason: reason.summary, verdict: .invalid,
          summary: "not a valid name: \(reason.summary)", listings: [], rules: [], publicSuffix: false, outputs: [])
      case .success(let name):
        return explain(query: query, name: name, listed: listed, rules: rules)
      }
    }
    return Answer(
      profile: snapshot.profile.name, sources: saved.map(\.key).filter { !unreadable.contains($0) },
      missing: sources.filter { $0.cacheFile == nil }.map(\.key), unreadable: unreadable,
      compiledCurrent: snapshot.isCompiledListCurrent, names: names)
  }

  /// What sources' saved copies list, read once per copy: the one answer to "which lists block x".
  public struct Listings: Sendable {
    /// For each candidate name, the copies that list it with their lines, in the sources' order.
    public var listed: [String: [Explanation.Listing]] = [:]
    /// Sources whose saved copy could not be read.
    public var unreadable: [String] = []
    /// What each copy read gave (its own exceptions among it).
    public var reports: [SourceReport] = []
  }

  /// Which of `sources`' saved copies list each of `candidates` (normalised names), with the line and
  /// the line's own format.
  func listings(of candidates: [String], in sources: [Source]) async -> Listings {
    var result = Listings()
    for source in sources where source.cacheFile != nil && source.sha256 != nil {
      guard let file = await openCopy(source) else {
        result.unreadable.append(source.key)
        continue
      }
      if var report = file.report {
        report.name = source.key
        result.reports.append(report)
      }
      var reader: LineReader?
      for (index, entry) in file.entries(of: candidates).enumerated() {
        guard let entry, !file.isRemoved(entry) else { continue }
        var listing = Explanation.Listing(
          source: source.key, sourceName: source.name, format: (source.format ?? source.detectedFormat)?.rawValue,
          matched: candidates[index], exact: false)
        if let origin = file.origin(entry) {
          if reader == nil { reader = LineReader(path: store.directory.file(source.cacheFile ?? "").path) }
          let found = reader?.line(at: origin.offset, from: origin.checkpoint)
          listing.line = found?.number
          listing.text = found?.text
          // The line's own format: a mixed list's majority says nothing of this line (a format the user
          // declared is how every line was read).
          if source.format == nil, let text = listing.text, let format = InputFormat.of(line: text) {
            listing.format = format.rawValue
          }
        }
        result.listed[candidates[index], default: []].append(listing)
      }
    }
    return result
  }

  /// For each of `names`, the saved copies of every source (of every profile, enabled or not) that list
  /// it, or list a parent in a format whose rules cover subdomains: exact matches first, then nearer
  /// parents, sources in key order within each. What a test report's "listed by" says.
  public func listing(_ names: [String]) async throws -> [String: [Explanation.Listing]] {
    let normalised = names.map { (name: $0, normal: try? NameRules.normalize($0).get()) }
    var candidates: [String] = []
    var seen = Set<String>()
    for case let (_, name?) in normalised {
      for candidate in Self.selfAndParents(name) where seen.insert(candidate).inserted { candidates.append(candidate) }
    }
    guard !candidates.isEmpty else { return [:] }
    let found = await listings(of: candidates, in: try store.allSources().sorted { $0.key < $1.key })
    var result: [String: [Explanation.Listing]] = [:]
    for case let (asked, name?) in normalised {
      for candidate in Self.selfAndParents(name) {
        for var listing in found.listed[candidate] ?? [] {
          listing.exact = candidate == name
          let covers = listing.format.flatMap(InputFormat.init(rawValue:))?.coversSubdomains == true
          if listing.exact || covers { result[asked, default: []].append(listing) }
        }
      }
    }
    return result
  }

  /// The name, then each parent, nearest first (`a.b.example.com`, `b.example.com`, `example.com`, `com`).
  static func selfAndParents(_ name: String) -> [String] { [name] + NameRules.parents(of: name) }

  /// A source's copy opened for lookups; a copy without a current block set file (saved by an older
  /// version) is compiled alone once and its file written.
  private func openCopy(_ source: Source) async -> BlockSetFile? {
    guard let cacheFile = source.cacheFile, let sha256 = source.sha256 else { return nil }
    let path = store.directory.file(Store.listFile(forCopy: cacheFile)).path
    let fingerprint = Store.copyFingerprint(sha256: sha256, format: source.format)
    if let file = BlockSetFile(path: path, fingerprint: fingerprint), file.hasOrigins { return file }
    _ = await store.list(of: source, rebuilding: true)
    return BlockSetFile(path: path, fingerprint: fingerprint)
  }

  private func explain(
    query: String, name: String, listed: [String: [Explanation.Listing]], rules: RuleSet
  ) -> Explanation {
    let chain = Self.selfAndParents(name)
    // What the profile's set holds: a listed or denied name, unless an allow rule takes it out.
    func inSet(_ candidate: String) -> Bool {
      listed[candidate] != nil || rules.deny.contains { $0.kind != .wildcard && $0.pattern == candidate }
    }
    func allowRule(_ candidate: String) -> RuleSet.Rule? { rules.allow.first { RuleSet.matches($0, candidate) } }
    func present(_ candidate: String) -> Bool { inSet(candidate) && allowRule(candidate) == nil }

    var listings: [Explanation.Listing] = []
    for candidate in chain {
      for var listing in listed[candidate] ?? [] {
        listing.exact = candidate == name
        listings.append(listing)
      }
    }
    // The rule that decides, as the engine finds it (`CompiledList.applyRules`): an allow rule takes a
    // listed or denied name out (exact, then subdomain rules on the name, then subdomain and wildcard
    // rules on each parent from the nearest, then expressions); else a deny rule on the name itself adds it.
    let decidingAllow = rules.decidingAllowRule(for: name)
    let decidingDeny =
      decidingAllow == nil ? rules.decidingDenyRule(for: name).flatMap { $0.pattern == name ? $0 : nil } : nil
    let ruleMatches = Self.ruleMatches(
      rules, name: name, chain: chain, decidingAllow: decidingAllow, decidingDeny: decidingDeny)
    // The subdomains-only blocks above the name that a format would write (`CompiledList.subdomainBlocks`).
    let below = Set(
      rules.subdomainDenials.map(\.pattern).filter { pattern in
        chain.dropFirst().contains(pattern) && !publicSuffixes.isPublicSuffix(pattern)
          && !rules.allowsEverySubdomain(of: pattern)
      })

    let isPublicSuffix = publicSuffixes.isPublicSuffix(name)
    let blocked = present(name)
    let allowedBy = inSet(name) ? decidingAllow : nil

    // Each covering format's exceptions, found as the renderer finds them (`Exceptions`) from the rules
    // on the name and its parents and the listed names only an expression removed.
    let candidates = Self.exceptionCandidates(rules, chain: chain, inSet: inSet)
    var outputs: [Explanation.Output] = []
    let notWrittenReason: String =
      if let allowedBy { "allowed by your rule \(allowedBy.text)" } else { "listed by no source" }
    for format in OutputFormat.allCases {
      var output = Explanation.Output(format: format.rawValue, written: .notWritten, parent: nil, reason: nil)
      // In the renderer's order: too long for the zone, a public suffix, then the exceptions and parents.
      let saysBelow = CompiledList.canBlockSubdomainsOnly(format)
      let written = { (candidate: String) in
        present(candidate) && !self.publicSuffixes.isPublicSuffix(candidate)
          && (format != .rpz || candidate.utf8.count <= Renderer.rpzNameLimit)
      }
      // A subdomains-only rule the format cannot say, where no entry covers the name instead (an entry at
      // the rule's name or above it blocks the subdomains already: `CompiledList.subdomainBlocks`).
      if !blocked, let parent = chain.dropFirst().first(where: below.contains), !saysBelow,
        !format.coversSubdomains || !Self.selfAndParents(parent).contains(where: written)
      {
        output.reason = "your rule *.\(parent) blocks subdomains only, which \(format.rawValue) output cannot say"
      } else if !format.coversSubdomains {
        if blocked { output.written = .asItself } else { output.reason = notWrittenReason }
      } else if blocked && format == .rpz && name.utf8.count > Renderer.rpzNameLimit {
        output.written = .leftOut
        output.reason = "longer than \(Renderer.rpzNameLimit) characters, too long for the zone"
      } else if blocked && isPublicSuffix {
        output.written = .leftOut
        output.reason = "a public suffix: blocking it would block every site under it"
      } else {
        let writtenBelow: Set<String> =
          saysBelow ? below.filter { format != .rpz || $0.utf8.count <= Renderer.rpzNameLimit } : []
        output = coveringOutput(
          format, name: name, candidates: candidates, below: writtenBelow, allowed: allowedBy != nil,
          notWrittenReason: notWrittenReason, written: written)
      }
      outputs.append(output)
    }
    let (verdict, summary) = Self.verdict(
      name: name, blocked: blocked, listings: listings, outputs: outputs, below: below,
      decidingAllow: decidingAllow, decidingDeny: decidingDeny, allowedBy: allowedBy)
    let unicode = NameRules.unicode(name)
    return Explanation(
      query: query, name: name, unicode: unicode == name ? nil : unicode, invalidReason: nil, verdict: verdict,
      summary: summary, listings: listings, rules: ruleMatches, publicSuffix: isPublicSuffix, outputs: outputs)
  }
  /// The exceptions a covering format may write for the name: the allow rules on it and its parents, and
  /// the names in the set that only an expression removes.
  static func exceptionCandidates(_ rules: RuleSet, chain: [String], inSet: (String) -> Bool)
    -> [Exceptions.Exception]
  {
    var candidates = rules.allow.filter { chain.contains($0.pattern) }.compactMap(Exceptions.Exception.init(rule:))
    for candidate in chain where inSet(candidate) {
      guard !rules.allow.contains(where: { $0.kind != .regex && RuleSet.matches($0, candidate) }),
        let rule = rules.allow.first(where: { $0.kind == .regex && RuleSet.matches($0, candidate) })
      else { continue }
      candidates.append(.init(name: candidate, scope: .exact, rule: rule.text))
    }
    return candidates
  }

  /// Every rule that matches the name or (a deny rule) a parent, and whether it decides.
  static func ruleMatches(
    _ rules: RuleSet, name: String, chain: [String], decidingAllow: RuleSet.Rule?, decidingDeny: RuleSet.Rule?
  ) -> [Explanation.RuleMatch] {
    var ruleMatches: [Explanation.RuleMatch] = []
    for rule in rules.allow where RuleSet.matches(rule, name) {
      ruleMatches.append(
        .init(rule: rule.text, allows: true, origin: rule.origin, matched: name, decides: rule == decidingAllow))
    }
    for rule in rules.deny {
      // A subdomains-only rule (`*.p`) matches a name below p, never p itself.
      let candidates = rule.kind == .wildcard ? Array(chain.dropFirst()) : chain
      guard let matched = candidates.first(where: { $0 == rule.pattern }) else { continue }
      ruleMatches.append(
        .init(
          rule: rule.kind == .wildcard ? rule.text : rule.pattern, allows: false, origin: rule.origin,
          matched: matched, decides: rule == decidingDeny))
    }
    return ruleMatches
  }

  /// The verdict and its one-line summary.
  static func verdict(
    name: String, blocked: Bool, listings: [Explanation.Listing], outputs: [Explanation.Output], below: Set<String>,
    decidingAllow: RuleSet.Rule?, decidingDeny: RuleSet.Rule?, allowedBy: RuleSet.Rule?
  ) -> (Explanation.Verdict, String) {
    // The summary's "blocked through its parent" follows dnsmasq's output (the formats with exceptions
    // agree but for unbound's exact allow rules, which its own output line shows).
    let coveringParent = outputs.first { $0.format == OutputFormat.dnsmasq.rawValue }?.parent
    let sourceCount = Set(listings.filter(\.exact).map(\.source)).count
    let verdict: Explanation.Verdict
    let summary: String
    if blocked {
      verdict = .blocked
      if sourceCount > 0 {
        summary = "blocked: listed by \(sourceCount) source\(sourceCount == 1 ? "" : "s")"
      } else {
        summary = "blocked by your rule \(decidingDeny?.pattern ?? name)"
      }
    } else if let coveringParent, below.contains(coveringParent) {
      verdict = .coveredByParent
      summary =
        "blocked by the rule *.\(coveringParent) (its subdomains only) in adblock, dnsmasq and RPZ output; hosts, domains, wildcard and unbound output cannot say it"
    } else if let coveringParent {
      verdict = .coveredByParent
      let formats = outputs.filter { $0.written == .coveredByParent }.map {
        $0.format == OutputFormat.rpz.rawValue ? "RPZ" : $0.format
      }
      summary =
        "blocked through its parent \(coveringParent) in formats that block subdomains (\(formats.joined(separator: ", "))); not in hosts output"
    } else if let rule = allowedBy ?? (outputs.contains { $0.written == .excepted } ? decidingAllow : nil) {
      verdict = .allowed
      summary = "allowed by your rule \(rule.text)"
    } else {
      verdict = .notBlocked
      summary =
        listings.isEmpty
        ? "not blocked: listed by no source"
        : "not blocked: only a parent is listed, and hosts output blocks exact names"
    }
    return (verdict, summary)
  }
}

extension Explainer {
  /// How a covering format writes `name`: its exceptions and parents decide, as the renderer's do.
  func coveringOutput(
    _ format: OutputFormat, name: String, candidates: [Exceptions.Exception], below: Set<String> = [], allowed: Bool,
    notWrittenReason: String, written: (String) -> Bool
  ) -> Explanation.Output {
    var output = Explanation.Output(format: format.rawValue, written: .notWritten, parent: nil, reason: nil)
    let exceptions = Exceptions(format: format, candidates: candidates, below: below, isWritten: written)
    switch exceptions.verdict(name, isWritten: written) {
    case .listed:
      output.written = .asItself
    case .covered(let parent) where below.contains(parent) && !written(parent):
      output.written = .coveredByParent
      output.parent = parent
      output.reason = "a subdomains-only block *.\(parent)"
    case .covered(let parent):
      output.written = .coveredByParent
      // The entry written for it: the farthest written parent (the nearer ones are compressed away).
      output.parent = Explainer.selfAndParents(parent).reversed().first(where: written) ?? parent
      if allowed {
        output.reason =
          format == .wildcard
          ? "the wildcard format has no exceptions: its parent's entry blocks every subdomain"
          : "an exact allow rule above it keeps that name's subdomains blocked"
      }
    case .excepted(let exception):
      output.written = .excepted
      output.reason = Self.exceptionReason(exception, format: format)
    case .notCovered:
      output.reason = notWrittenReason
    }
    return output
  }

  /// Why an exception lets a name through: the rule and the line of the compiled file that lets it
  /// through, as the file holds it (`*.name CNAME rpz-passthru.`, not the name's own `name CNAME .`
  /// block written beside it).
  static func exceptionReason(_ exception: Exceptions.Exception, format: OutputFormat) -> String {
    let lines = Renderer(format: format).lines(for: exception, ownEntry: false).split(separator: "\n").map(String.init)
    let line = lines.first(where: Renderer.letsThrough) ?? lines.first ?? ""
    return "your rule \(exception.rule): \(line)"
  }
}

/// Reads single lines of a file at given offsets (a copy's entries, for `why`), as printable text, and
/// counts their numbers from a checkpoint before them.
struct LineReader {
  private let handle: FileHandle?

  init(path: String) { handle = FileHandle(forReadingAtPath: path) }

  /// The line starting at `offset`: its number (the checkpoint's plus the line breaks between them) and
  /// its text without its line break, control characters shown as `?`, at most 300 characters (longer
  /// ones end with `…`). Nil when the file cannot be read there.
  func line(at offset: Int, from checkpoint: (offset: Int, line: Int)) -> (number: Int, text: String)? {
    guard let handle, checkpoint.offset <= offset else { return nil }
    do {
      try handle.seek(toOffset: UInt64(checkpoint.offset))
      guard let data = try handle.read(upToCount: offset - checkpoint.offset + 1024) else { return nil }
      let all = Array(data)
      guard offset - checkpoint.offset <= all.count else { return nil }
      let number = checkpoint.line + all[..<(offset - checkpoint.offset)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      var bytes = Array(all[(offset - checkpoint.offset)...])
      if let newline = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(newline...) }
      if bytes.last == 0x0D { bytes.removeLast() }
      if offset == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      var text = String(decoding: bytes, as: UTF8.self)
      text = String(
        String.UnicodeScalarView(
          text.unicodeScalars.map { $0.value < 0x20 && $0 != "\t" || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
      if text.count > 300 { text = String(text.prefix(299)) + "…" }
      return (number, text)
    } catch {
      return nil
    }
  }
}
