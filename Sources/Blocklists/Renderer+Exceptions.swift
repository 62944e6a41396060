extension Renderer {
  /// What a covering format's rendering needs when allow rules make exceptions: the exceptions, the
  /// entries whose lines the exception section writes instead, and the hashes of the exceptions' names
  /// (a name with none of them among its parents is compressed as before).
  struct Special: Sendable {
    let exceptions: Exceptions
    /// Entries written by the exception section (a written name with a `.below` exception).
    let ownLines: Set<Int>
    /// `NameHash` of every exception's name.
    let hashes: Set<UInt64>
    /// The subdomains-only deny rules as this format takes them.
    let subdomains: CompiledList.SubdomainBlocks
    /// `NameHash` of every name whose subdomains only are written as blocked.
    let belowHashes: Set<UInt64>

    /// Whether a name lies under a subdomains-only block that still covers it once the exceptions among
    /// its parents count: it is left out, as under a listed parent.
    func coveredBelow(_ name: UnsafeBufferPointer<UInt8>, list: CompiledList, renderer: Renderer) -> Bool {
      !belowHashes.isEmpty && Self.hasParent(name, among: belowHashes)
        && parentsCover(name, list: list, renderer: renderer)
    }

    /// Whether a name whose listed parent the fast path found is still covered once the exceptions
    /// among its parents count (`Exceptions.parentVerdict`).
    func covers(_ name: UnsafeBufferPointer<UInt8>, list: CompiledList, renderer: Renderer) -> Bool {
      !Self.hasParent(name, among: hashes) || parentsCover(name, list: list, renderer: renderer)
    }

    /// Whether a parent of the name has one of these `NameHash`es.
    static func hasParent(_ name: UnsafeBufferPointer<UInt8>, among hashes: Set<UInt64>) -> Bool {
      var index = 0
      while index < name.count {
        if name[index] == UInt8(ascii: "."),
          hashes.contains(NameHash.hash(UnsafeBufferPointer(rebasing: name[(index + 1)...])))
        {
          return true
        }
        index += 1
      }
      return false
    }

    /// The exceptions' verdict on the name's parents (the slow path, for the few names they concern).
    func parentsCover(_ name: UnsafeBufferPointer<UInt8>, list: CompiledList, renderer: Renderer) -> Bool {
      let text = String(decoding: name, as: UTF8.self)
      return exceptions.parentVerdict(text) { renderer.isWritten($0, in: list) }.isBlocked
    }
  }

  /// Whether a name is written as an entry of its own in this renderer's format.
  func isWritten(_ name: String, in list: CompiledList) -> Bool {
    list.isWritten(name, format: format, publicSuffixes: publicSuffixes)
  }

  /// The exceptions of a covering format, or nil when it needs none (no allow rule under a blocked parent).
  func special(for list: CompiledList) -> Special? {
    guard !list.rules.allow.isEmpty || !list.rules.subdomainDenials.isEmpty else { return nil }
    let subdomains = list.subdomainBlocks(for: format, publicSuffixes: publicSuffixes)
    guard format.coversSubdomains else {
      return subdomains == .init()
        ? nil
        : Special(
          exceptions: Exceptions(format: format, candidates: [], isWritten: { _ in false }), ownLines: [],
          hashes: [], subdomains: subdomains, belowHashes: [])
    }
    let exceptions = list.exceptions(for: format, publicSuffixes: publicSuffixes)
    guard !exceptions.isEmpty || !exceptions.unexpressed.isEmpty || subdomains != .init() else { return nil }
    let ownLines = Set(exceptions.ownEntries.compactMap { list.names.entry(of: $0) })
    let hashes = Set(exceptions.active.map { name in Array(name.name.utf8).withUnsafeBufferPointer(NameHash.hash) })
    let belowHashes = Set(subdomains.written.map { Array($0.utf8).withUnsafeBufferPointer(NameHash.hash) })
    return Special(
      exceptions: exceptions, ownLines: ownLines, hashes: hashes, subdomains: subdomains, belowHashes: belowHashes)
  }

  /// Writes the subdomains-only blocks after the entries (`||*.name^`, `server=/*.name/`, `*.name CNAME .`)
  /// and counts the ones the format cannot say or leaves out.
  func writeSubdomainBlocks(_ special: Special, report: inout Report, to sink: inout ByteSink) throws(CompileError) {
    let blocks = special.subdomains
    report.unexpressedSubdomainBlocks += blocks.unexpressed.count
    report.unexpressedSubdomainSamples += blocks.unexpressed.prefix(Findings.samplesPerReason)
    report.publicSuffixesLeftOut += blocks.leftOut.count
    report.publicSuffixSamples += blocks.leftOut.prefix(Findings.samplesPerReason - report.publicSuffixSamples.count)
    guard !blocks.written.isEmpty else { return }
    try Self.refuseUnrenderable(blocks.written)
    try sink.write("\(format.commentPrefix) Subdomains only: deny rules *.name (the name itself is not blocked)\n")
    for name in blocks.written {
      switch format {
      case .adblock: try sink.write("||*.\(name)^\n")
      case .dnsmasq: try sink.write("server=/*.\(name)/\n")
      case .rpz: try sink.write("*.\(name) CNAME .\n")
      default: continue
      }
      report.subdomainBlocks += 1
    }
  }

  /// Writes the exception section after the entries: each exception in the format's own syntax, the
  /// entries it replaces, and (RPZ) the names between an exception and its blocked parent.
  func writeExceptions(_ list: CompiledList, _ special: Special, report: inout Report, to sink: inout ByteSink)
    throws(CompileError)
  {
    try writeSubdomainBlocks(special, report: &report, to: &sink)
    let exceptions = special.exceptions
    for exception in exceptions.unexpressed {
      report.unexpressedExceptions += 1
      if report.unexpressedSamples.count < Findings.samplesPerReason {
        report.unexpressedSamples.append(exception.name)
      }
    }
    guard !exceptions.isEmpty else { return }
    let mark = format.commentPrefix
    try sink.write("\(mark) Exceptions: allow rules under a blocked parent\n")
    let written = { (name: String) in self.isWritten(name, in: list) }
    let intermediates = exceptions.rpzIntermediates(isWritten: written)
    try Self.refuseUnrenderable(intermediates + exceptions.active.map(\.name))
    for name in intermediates {
      try sink.write("\(name) CNAME .\n*.\(name) CNAME .\n")
    }
    for exception in exceptions.active {
      let name = exception.name
      let own = exception.scope == .below && written(name)
      if own { report.written += 1 }
      try sink.write(lines(for: exception, ownEntry: own))
      report.exceptions += 1
    }
  }

  /// Throws when a rule's name is not a name (`NameRules.isRenderable`): rules reach the renderer from
  /// the store and the lists' own exceptions, and one holding a quote or a newline would add statements.
  static func refuseUnrenderable(_ names: [String]) throws(CompileError) {
    var report = Report()
    for name in names where !NameRules.isRenderable(name) {
      var bytes = Array(name.utf8)
      bytes.withUnsafeMutableBufferPointer { report.refuse(UnsafeBufferPointer($0)) }
    }
    try refuseUnrenderable(report)
  }

  /// Whether an exception's line is the one that lets names through (not a block written beside it):
  /// `server=/…/#`, a transparent local zone, `CNAME rpz-passthru.`, `@@…`.
  public static func letsThrough(_ line: String) -> Bool {
    line.hasSuffix("/#") || line.hasSuffix(" transparent") || line.hasSuffix(" CNAME rpz-passthru.")
      || line.hasPrefix("@@")
  }

  /// One exception's lines; `ownEntry` when the name is itself written and blocked (a `.below` exception).
  public func lines(for exception: Exceptions.Exception, ownEntry: Bool) -> String {
    let name = exception.name
    switch (format, exception.scope) {
    case (.dnsmasq, .exact): return "server=/\(name)/#\nserver=/*.\(name)/\n"
    case (.dnsmasq, .subtree): return "server=/\(name)/#\n"
    case (.dnsmasq, .below): return (ownEntry ? "server=/\(name)/\n" : "") + "server=/*.\(name)/#\n"
    case (.unbound, .exact), (.unbound, .subtree): return "local-zone: \"\(name).\" transparent\n"
    case (.unbound, .below):
      // Its subdomains resolve; the name itself answers as an always_null zone does (0.0.0.0, ::, and
      // NODATA for every other type).
      return
        "local-zone: \"\(name).\" transparent\nlocal-data: \"\(name). A 0.0.0.0\"\nlocal-data: \"\(name). AAAA ::\"\n"
    case (.rpz, .exact): return "\(name) CNAME rpz-passthru.\n*.\(name) CNAME .\n"
    case (.rpz, .subtree): return "\(name) CNAME rpz-passthru.\n*.\(name) CNAME rpz-passthru.\n"
    case (.rpz, .below):
      // The name gets a record of its own either way: with only `*.name`, it would exist in the zone
      // without one, and its parent's wildcard would no longer block it.
      return "\(name) CNAME .\n*.\(name) CNAME rpz-passthru.\n"
    case (.adblock, .exact): return "@@|\(name)^\n"
    case (.adblock, .subtree): return "@@||\(name)^\n"
    case (.adblock, .below): return (ownEntry ? "||\(name)^\n" : "") + "@@||*.\(name)^\n"
    default: return ""
    }
  }
}
