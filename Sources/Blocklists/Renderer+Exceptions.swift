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

    /// Whether a name whose listed parent the fast path found is still covered once the exceptions
    /// among its parents count (`Exceptions.parentVerdict`).
    func covers(_ name: UnsafeBufferPointer<UInt8>, list: CompiledList, renderer: Renderer) -> Bool {
      var index = 0
      var affected = false
      while index < name.count {
        if name[index] == UInt8(ascii: "."),
          hashes.contains(NameHash.hash(UnsafeBufferPointer(rebasing: name[(index + 1)...])))
        {
          affected = true
          break
        }
        index += 1
      }
      guard affected else { return true }
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
    guard format.coversSubdomains, !list.rules.allow.isEmpty else { return nil }
    let exceptions = list.exceptions(for: format, publicSuffixes: publicSuffixes)
    guard !exceptions.isEmpty || !exceptions.unexpressed.isEmpty else { return nil }
    let ownLines = Set(exceptions.ownEntries.compactMap { list.names.entry(of: $0) })
    let hashes = Set(exceptions.active.map { name in Array(name.name.utf8).withUnsafeBufferPointer(NameHash.hash) })
    return Special(exceptions: exceptions, ownLines: ownLines, hashes: hashes)
  }

  /// Writes the exception section after the entries: each exception in the format's own syntax, the
  /// entries it replaces, and (RPZ) the names between an exception and its blocked parent.
  func writeExceptions(_ list: CompiledList, _ special: Special, report: inout Report, to sink: inout ByteSink)
    throws(CompileError)
  {
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
    for name in exceptions.rpzIntermediates(isWritten: written) {
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
