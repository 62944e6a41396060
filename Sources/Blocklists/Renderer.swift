import Foundation

/// Writes a compiled list in one of the supported formats, with a header its consumer accepts.
///
/// Apart from the header's date line (and the RPZ serial derived from it), the output is the same
/// bytes for the same input: names come in first-seen order (sources in the order given, then line
/// order), never in hash or timing order.
///
/// For formats whose rules also block subdomains (adblock, wildcard, dnsmasq, unbound, RPZ):
/// - a name whose parent is also blocked is left out (compression), since the parent covers it;
/// - a name that is a public suffix (`co.uk`, `servebbs.net`) is left out, because there it would block
///   every site registered under it; the hosts and domains formats keep it (blocking it exactly is harmless).
public struct Renderer: Sendable {
  /// The address used in hosts output.
  public enum HostsAddress: Sendable, Hashable, Codable {
    /// `0.0.0.0` (the default: fails fast, no local connection attempt).
    case ipv4
    /// `::`.
    case ipv6
    /// Both: each name twice, once per family.
    case both
    /// A chosen address, such as a block page.
    case custom(String)

    var addresses: [String] {
      switch self {
      case .ipv4: ["0.0.0.0"]
      case .ipv6: ["::"]
      case .both: ["0.0.0.0", "::"]
      case .custom(let address): [address]
      }
    }
  }

  /// What rendering wrote and left out.
  public struct Report: Sendable, Hashable, Codable {
    /// Names written.
    public var written = 0
    /// Names left out because a blocked parent covers them.
    public var compressed = 0
    /// Public suffixes left out of a format that covers subdomains.
    public var publicSuffixesLeftOut = 0
    /// Up to five of them.
    public var publicSuffixSamples: [String] = []
    /// Names left out of an RPZ zone because, with the zone's name after them, they would pass the
    /// 253-character limit of a DNS name (one such line makes the server refuse the whole zone).
    public var tooLongForZone = 0
    /// Up to five of them.
    public var tooLongSamples: [String] = []
    /// Exceptions written for allow rules under a blocked parent (see `Exceptions`).
    public var exceptions = 0
    /// Allow rules under a blocked parent that the format cannot say (the wildcard format has no
    /// exceptions; an RPZ name too long for the zone): the parent's entry still blocks those names.
    public var unexpressedExceptions = 0
    /// Up to five of those rules' names.
    public var unexpressedSamples: [String] = []
    /// Subdomains-only blocks written (`||*.name^`, `server=/*.name/`, `*.name CNAME .`).
    public var subdomainBlocks = 0
    /// Subdomains-only deny rules the format cannot say (hosts, domains, wildcard, unbound): left out.
    public var unexpressedSubdomainBlocks = 0
    /// Up to five of their names.
    public var unexpressedSubdomainSamples: [String] = []
    /// Names refused because they are not names (`NameRules.isRenderable`): a block set file or rule
    /// changed on disk. Any makes the render fail (`CompileError.unrenderable`), nothing written.
    public var unrenderable = 0
    /// Up to five of them, control characters escaped.
    public var unrenderableSamples: [String] = []

    mutating func refuse(_ name: UnsafeBufferPointer<UInt8>) {
      unrenderable += 1
      if unrenderableSamples.count < Findings.samplesPerReason {
        unrenderableSamples.append(Findings.printable(name))
      }
    }

    mutating func add(_ other: Report) {
      written += other.written
      compressed += other.compressed
      publicSuffixesLeftOut += other.publicSuffixesLeftOut
      publicSuffixSamples += other.publicSuffixSamples.prefix(Findings.samplesPerReason - publicSuffixSamples.count)
      tooLongForZone += other.tooLongForZone
      tooLongSamples += other.tooLongSamples.prefix(Findings.samplesPerReason - tooLongSamples.count)
      exceptions += other.exceptions
      unexpressedExceptions += other.unexpressedExceptions
      unexpressedSamples += other.unexpressedSamples.prefix(Findings.samplesPerReason - unexpressedSamples.count)
      subdomainBlocks += other.subdomainBlocks
      unexpressedSubdomainBlocks += other.unexpressedSubdomainBlocks
      unexpressedSubdomainSamples += other.unexpressedSubdomainSamples.prefix(
        Findings.samplesPerReason - unexpressedSubdomainSamples.count)
      unrenderable += other.unrenderable
      unrenderableSamples += other.unrenderableSamples.prefix(Findings.samplesPerReason - unrenderableSamples.count)
    }

    /// Creates a report.
    public init(
      written: Int = 0, compressed: Int = 0, publicSuffixesLeftOut: Int = 0, publicSuffixSamples: [String] = []
    ) {
      self.written = written
      self.compressed = compressed
      self.publicSuffixesLeftOut = publicSuffixesLeftOut
      self.publicSuffixSamples = publicSuffixSamples
    }
  }

  public var format: OutputFormat
  public var hostsAddress: HostsAddress
  /// Names per line, 1 by default: in hosts output, names after one address (Windows' resolver copes
  /// better with several per line); in dnsmasq output, names in one `address=/a/b/…/#` option, whose
  /// line is also kept within `dnsmasqLineLimit` bytes (dnsmasq parses such a file three times faster:
  /// 0.06 instead of 0.16 s for 271,570 names).
  public var namesPerLine: Int
  /// Whether covering formats leave out names whose parent is blocked. RPZ output always does: an entry
  /// under a blocked parent's wildcard makes the names between them exist in the zone, and BIND then no
  /// longer matches those names with the parent's wildcard.
  public var compresses: Bool
  /// The list's title in the header.
  public var title: String
  /// The date in the header.
  public var date: Date
  /// An RPZ zone's SOA serial (nil: a new zone's, from `date`; see `ZoneSerial`).
  public var serial: ZoneSerial?
  let publicSuffixes: PublicSuffixList

  /// Creates a renderer.
  public init(
    format: OutputFormat, hostsAddress: HostsAddress = .ipv4, namesPerLine: Int = 1, compresses: Bool = true,
    title: String = "SaneHosts blocklist", date: Date = Date(), publicSuffixes: PublicSuffixList = .bundled
  ) {
    self.format = format
    self.hostsAddress = hostsAddress
    self.namesPerLine = max(1, namesPerLine)
    self.compresses = compresses || format == .rpz
    self.title = title
    self.date = date
    self.publicSuffixes = publicSuffixes
  }

  /// Names per chunk of output rendered as one unit (and, concurrently, on one core): small enough
  /// that both cores stay busy to the end of a 400,000-name drop-in.
  static let chunkSize = 1 << 15

  /// The longest dnsmasq line written with several names, newline included: dnsmasq reads a
  /// configuration line into a buffer of 1,025 bytes and refuses a longer one ("Bad address").
  public static let dnsmasqLineLimit = 1000

  /// The origin the RPZ targets load the zone under (`sanehosts.rpz`): a name is written only when
  /// `*.name.` with it stays within 253 characters.
  public static let rpzOrigin = "sanehosts.rpz"

  /// The longest name an RPZ zone can hold as `*.name` under `rpzOrigin`: 237 characters.
  public static let rpzNameLimit = NameRules.maximumLength - rpzOrigin.utf8.count - 3

  /// Writes the list to a sink.
  @discardableResult
  public func render(_ list: CompiledList, to sink: inout ByteSink) throws(CompileError) -> Report {
    try checkAddress()
    try writeHeader(list, to: &sink)
    if format == .hosts && namesPerLine > 1 { return try renderGrouped(list, to: &sink) }
    let presence = presence(for: list)
    let special = special(for: list)
    var report = Report()
    for start in stride(from: 0, to: list.names.entryCount, by: Self.chunkSize) {
      let (bytes, part) = renderChunk(
        list, start..<min(start + Self.chunkSize, list.names.entryCount), presence: presence, special: special)
      try Self.refuseUnrenderable(part)
      try sink.write(bytes)
      report.add(part)
    }
    if let special { try writeExceptions(list, special, report: &report, to: &sink) }
    try writeTrailer(list, report, to: &sink)
    try sink.flush()
    return report
  }

  /// Writes the same bytes as `render(_:to:)`, rendering chunks on several cores and writing them in order.
  @discardableResult
  public func renderConcurrently(_ list: CompiledList, to sink: inout ByteSink, parallelism: Int = 2)
    async throws(CompileError) -> Report
  {
    if format == .hosts && namesPerLine > 1 { return try render(list, to: &sink) }
    try checkAddress()
    try writeHeader(list, to: &sink)
    let count = list.names.entryCount
    sink.expect(count == 0 ? 0 : bound(of: list, 0..<count))
    let chunks = stride(from: 0, to: count, by: Self.chunkSize).map { $0..<min($0 + Self.chunkSize, count) }
    let presence = presence(for: list)
    let special = special(for: list)
    var report = Report()
    var failure: CompileError?
    await withTaskGroup(of: (Int, [UInt8], Report).self) { group in
      var ready: [Int: ([UInt8], Report)] = [:]
      var next = 0
      var submitted = 0
      // Chunks already written: their room is reused, not faulted in anew.
      var spares: [[UInt8]] = []
      while next < chunks.count {
        while submitted < chunks.count && submitted - next < max(1, parallelism) {
          let index = submitted
          let spare = Handoff(spares.popLast())
          group.addTask {
            let (bytes, part) = self.renderChunk(
              list, chunks[index], presence: presence, special: special, reusing: spare.take())
            return (index, bytes, part)
          }
          submitted += 1
        }
        guard let (index, bytes, part) = await group.next() else { break }
        ready[index] = (bytes, part)
        while let (bytes, part) = ready.removeValue(forKey: next) {
          if failure == nil {
            do throws(CompileError) {
              try Self.refuseUnrenderable(part)
              try sink.write(bytes)
            } catch { failure = error }
          }
          report.add(part)
          spares.append(bytes)
          next += 1
        }
      }
    }
    if let failure { throw failure }
    if let special { try writeExceptions(list, special, report: &report, to: &sink) }
    try writeTrailer(list, report, to: &sink)
    try sink.flush()
    return report
  }

  /// The set's presence bits, when names are checked for a listed parent (compression).
  private func presence(for list: CompiledList) -> NameSet.Presence? {
    format.coversSubdomains && compresses && list.names.entryCount > 0 ? list.names.presence() : nil
  }

  /// Renders the names of a range of entries into bytes.
  func renderChunk(
    _ list: CompiledList, _ range: Range<Int>, presence: NameSet.Presence? = nil, special: Special? = nil,
    reusing spare: consuming [UInt8]? = nil
  ) -> (
    [UInt8], Report
  ) {
    var report = Report()
    let (prefix, suffix) = affixes
    let addresses = hostsAddress.addresses.map { Array("\($0) ".utf8) }
    let bound = range.isEmpty ? 0 : bound(of: list, range)
    // Written through a pointer, not appended piece by piece; only a difference in length is filled first.
    var out = spare.take() ?? []
    if out.count < bound {
      out.appendZeros(bound - out.count)
    } else {
      out.removeLast(out.count - bound)
    }
    let written = out.withUnsafeMutableBufferPointer { buffer -> Int in
      guard let start = buffer.baseAddress else { return 0 }
      let affixes = (prefix + suffix + Self.wildcardPrefix + addresses.joined())
      return affixes.withUnsafeBufferPointer { affixes in
        // The affixes, each a slice of one buffer: prefix, suffix, the RPZ wildcard, the hosts addresses.
        var parts = [UnsafeBufferPointer(rebasing: affixes[0..<prefix.count])]
        var offset = prefix.count
        for length in [suffix.count, Self.wildcardPrefix.count] + addresses.map(\.count) {
          parts.append(UnsafeBufferPointer(rebasing: affixes[offset..<(offset + length)]))
          offset += length
        }
        let end = writeNames(
          list, range, presence: presence, special: special, prefix: parts[0], suffix: parts[1], wildcard: parts[2],
          addresses: Array(parts.dropFirst(3)), at: start, report: &report)
        return end - start
      }
    }
    out.removeLast(bound - written)
    return (out, report)
  }

  /// Writes the lines of a range of entries at `start`, returning where they end.
  @inline(__always)
  private func writeNames(
    _ list: CompiledList, _ range: Range<Int>, presence: NameSet.Presence?, special: Special?,
    prefix: UnsafeBufferPointer<UInt8>, suffix: UnsafeBufferPointer<UInt8>, wildcard: UnsafeBufferPointer<UInt8>,
    addresses addressParts: [UnsafeBufferPointer<UInt8>], at start: UnsafeMutablePointer<UInt8>,
    report: inout Report
  ) -> UnsafeMutablePointer<UInt8> {
    let set = list.names
    let covering = format.coversSubdomains
    let isHosts = format == .hosts
    let isRPZ = format == .rpz
    let packs = format == .dnsmasq && namesPerLine > 1
    var cursor = start
    @inline(__always) func put(_ bytes: UnsafeBufferPointer<UInt8>) {
      cursor.update(from: bytes.baseAddress!, count: bytes.count)
      cursor += bytes.count
    }
    // The commonest output, `0.0.0.0 name` lines, puts its address as one word.
    let addressWord: UInt64? =
      isHosts && addressParts.count == 1 && addressParts[0].count == 8
      ? UnsafeRawPointer(addressParts[0].baseAddress!).loadUnaligned(as: UInt64.self) : nil
    let checksRemoved = set.removedCount > 0
    // Packed dnsmasq lines end with the suffix's `#\n` (its `/` follows each name).
    let closing = UnsafeBufferPointer(rebasing: suffix[1...])
    var onLine = 0
    var lineLength = 0
    set.withStorage { names, ends in
      for entry in range where !checksRemoved || !set.isRemoved(entry) {
        if let special, special.ownLines.contains(entry) { continue }
        let name = UnsafeBufferPointer(rebasing: names[(entry == 0 ? 0 : Int(ends[entry - 1]))..<Int(ends[entry])])
        guard NameRules.isRenderable(name) else {
          report.refuse(name)
          continue
        }
        if covering && isLeftOut(name, list: list, presence: presence, special: special, report: &report) { continue }
        report.written += 1
        if let addressWord {
          UnsafeMutableRawPointer(cursor).storeBytes(of: addressWord, as: UInt64.self)
          cursor += 8
          put(name)
          cursor.pointee = 0x0A
          cursor += 1
        } else if isHosts {
          for address in addressParts {
            put(address)
            put(name)
            cursor.pointee = 0x0A
            cursor += 1
          }
        } else if packs {
          // `server=/a/b/…/`: the open line is closed first when this name would not fit.
          if onLine > 0 && (onLine == namesPerLine || lineLength + name.count + 3 > Self.dnsmasqLineLimit) {
            put(closing)
            onLine = 0
          }
          if onLine == 0 {
            put(prefix)
            lineLength = prefix.count
          }
          put(name)
          cursor.pointee = UInt8(ascii: "/")
          cursor += 1
          lineLength += name.count + 1
          onLine += 1
        } else {
          put(prefix)
          put(name)
          put(suffix)
          if isRPZ {
            put(wildcard)
            put(name)
            put(suffix)
          }
        }
      }
      if onLine > 0 { put(closing) }
    }
    return cursor
  }

  /// Whether a name of a format that covers subdomains is left out, counting why: too long for the
  /// zone, a public suffix, or compressed away under a listed parent.
  @inline(__always)
  private func isLeftOut(
    _ name: UnsafeBufferPointer<UInt8>, list: CompiledList, presence: NameSet.Presence?, special: Special?,
    report: inout Report
  ) -> Bool {
    if format == .rpz && name.count > Self.rpzNameLimit {
      report.tooLongForZone += 1
      if report.tooLongSamples.count < Findings.samplesPerReason {
        report.tooLongSamples.append(String(decoding: name, as: UTF8.self))
      }
      return true
    }
    if publicSuffixes.isPublicSuffix(name, hash: NameHash.hash(name)) {
      report.publicSuffixesLeftOut += 1
      if report.publicSuffixSamples.count < Findings.samplesPerReason {
        report.publicSuffixSamples.append(String(decoding: name, as: UTF8.self))
      }
      return true
    }
    if compresses && hasBlockedParent(name, in: list.names, presence: presence)
      && (special.map { $0.covers(name, list: list, renderer: self) } ?? true)
    {
      report.compressed += 1
      return true
    }
    if compresses, let special, special.coveredBelow(name, list: list, renderer: self) {
      report.compressed += 1
      return true
    }
    return false
  }

  /// An upper bound of the bytes a range of entries renders to (a non-empty range): every name written
  /// with all its affixes.
  func bound(of list: CompiledList, _ range: Range<Int>) -> Int {
    let nameBytes = list.names.byteRange(range).count
    if format == .hosts {
      let addresses = hostsAddress.addresses.map { $0.utf8.count + 1 }
      return addresses.count * (nameBytes + range.count) + range.count * addresses.reduce(0, +)
    }
    let (prefix, suffix) = affixes
    let copies = format == .rpz ? 2 : 1
    return copies * (nameBytes + range.count * (prefix.count + suffix.count)) + range.count * Self.wildcardPrefix.count
  }

  /// Hosts output with several names per line.
  private func renderGrouped(_ list: CompiledList, to sink: inout ByteSink) throws(CompileError) -> Report {
    var report = Report()
    let set = list.names
    let addresses = hostsAddress.addresses.map { Array("\($0) ".utf8) }
    var group: [UInt8] = []
    var pending = 0
    for entry in 0..<set.entryCount where !set.isRemoved(entry) {
      let renderable = set.withName(entry) { name in
        guard NameRules.isRenderable(name) else {
          report.refuse(name)
          return false
        }
        if !group.isEmpty { group.append(0x20) }
        group.append(contentsOf: name)
        return true
      }
      try Self.refuseUnrenderable(report)
      guard renderable else { continue }
      report.written += 1
      pending += 1
      if pending == namesPerLine {
        try writeGroup(&group, addresses: addresses, to: &sink)
        pending = 0
      }
    }
    if pending > 0 { try writeGroup(&group, addresses: addresses, to: &sink) }
    try sink.flush()
    return report
  }

  /// Throws when a part of the output refused a name that is not one: the whole render fails, so no
  /// file holds a line its server's grammar does not allow.
  static func refuseUnrenderable(_ report: Report) throws(CompileError) {
    guard report.unrenderable > 0 else { return }
    throw .unrenderable(samples: report.unrenderableSamples, count: report.unrenderable)
  }

  /// Throws when the hosts address chosen is not an IPv4 or IPv6 address (a ledger changed on disk
  /// could ask for `0.0.0.0\n203.0.113.7 bank.example`).
  func checkAddress() throws(CompileError) {
    guard case .custom(let address) = hostsAddress, !Self.isAddress(address) else { return }
    var bytes = Array(address.utf8)
    let shown = bytes.withUnsafeMutableBufferPointer { Findings.printable(UnsafeBufferPointer($0)) }
    throw .unrenderable(samples: [shown], count: 1)
  }

  /// Whether `text` is an IPv4 or IPv6 address, exactly (`inet_pton`).
  public static func isAddress(_ text: String) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
  }

  private var affixes: ([UInt8], [UInt8]) {
    let (prefix, suffix) =
      switch format {
      case .hosts: ("", "\n")
      case .domains: ("", "\n")
      case .adblock: ("||", "^\n")
      case .wildcard: ("*.", "\n")
      // `server=/name/` answers NXDOMAIN for every record type and is never forwarded; `address=/name/#`
      // answered A and AAAA with 0.0.0.0 and :: but forwarded every other type (HTTPS records leaked the
      // real addresses). It is also the one line a `servers-file` takes, which SIGHUP reads again.
      case .dnsmasq: ("server=/", "/\n")
      case .unbound: ("local-zone: \"", ".\" always_null\n")
      case .rpz: ("", " CNAME .\n")
      }
    return (Array(prefix.utf8), Array(suffix.utf8))
  }

  private static let wildcardPrefix = Array("*.".utf8)

  private func writeGroup(_ group: inout [UInt8], addresses: [[UInt8]], to sink: inout ByteSink) throws(CompileError) {
    for address in addresses {
      try sink.write(address)
      try sink.write(group)
      sink.write(byte: 0x0A)
    }
    group.removeAll(keepingCapacity: true)
  }

  private func hasBlockedParent(
    _ name: UnsafeBufferPointer<UInt8>, in set: NameSet, presence: NameSet.Presence?
  ) -> Bool {
    var index = 0
    while index < name.count {
      if name[index] == UInt8(ascii: ".") {
        let parent = UnsafeBufferPointer(rebasing: name[(index + 1)...])
        let hash = NameHash.hash(parent)
        // Most parents are not listed: the presence bits say so from cache (a table miss each was 40 %
        // of a drop-in's rendering).
        if presence?.mayContain(hash) ?? true, let entry = set.entry(of: parent, hash: hash), !set.isRemoved(entry),
          !publicSuffixes.isPublicSuffix(parent, hash: hash)
        {
          return true
        }
      }
      index += 1
    }
    return false
  }
}
