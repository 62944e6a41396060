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
  public enum HostsAddress: Sendable, Hashable {
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

    /// Creates a report.
    mutating func add(_ other: Report) {
      written += other.written
      compressed += other.compressed
      publicSuffixesLeftOut += other.publicSuffixesLeftOut
      publicSuffixSamples += other.publicSuffixSamples.prefix(Findings.samplesPerReason - publicSuffixSamples.count)
    }

    public init(
      written: Int = 0, compressed: Int = 0, publicSuffixesLeftOut: Int = 0, publicSuffixSamples: [String] = []
    ) {
      self.written = written
      self.compressed = compressed
      self.publicSuffixesLeftOut = publicSuffixesLeftOut
      self.publicSuffixSamples = publicSuffixSamples
    }
  }

  public var format: ListFormat
  public var hostsAddress: HostsAddress
  /// Names per hosts line (Windows' resolver copes better with several per line); 1 by default.
  public var namesPerLine: Int
  /// Whether covering formats leave out names whose parent is blocked.
  public var compresses: Bool
  /// The list's title in the header.
  public var title: String
  /// The date in the header.
  public var date: Date
  private let publicSuffixes: PublicSuffixList

  /// Creates a renderer.
  public init(
    format: ListFormat, hostsAddress: HostsAddress = .ipv4, namesPerLine: Int = 1, compresses: Bool = true,
    title: String = "SaneHosts blocklist", date: Date = Date(), publicSuffixes: PublicSuffixList = .bundled
  ) {
    self.format = format
    self.hostsAddress = hostsAddress
    self.namesPerLine = max(1, namesPerLine)
    self.compresses = compresses
    self.title = title
    self.date = date
    self.publicSuffixes = publicSuffixes
  }

  /// Names per chunk of output rendered as one unit (and, concurrently, on one core).
  static let chunkSize = 1 << 17

  /// Writes the list to a sink.
  @discardableResult
  public func render(_ list: CompiledList, to sink: inout ByteSink) throws(CompileError) -> Report {
    try writeHeader(list, to: &sink)
    if format == .hosts && namesPerLine > 1 { return try renderGrouped(list, to: &sink) }
    var report = Report()
    for start in stride(from: 0, to: list.names.entryCount, by: Self.chunkSize) {
      let (bytes, part) = renderChunk(list, start..<min(start + Self.chunkSize, list.names.entryCount))
      try sink.write(bytes)
      report.add(part)
    }
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
    try writeHeader(list, to: &sink)
    let count = list.names.entryCount
    let chunks = stride(from: 0, to: count, by: Self.chunkSize).map { $0..<min($0 + Self.chunkSize, count) }
    var report = Report()
    var failure: CompileError?
    await withTaskGroup(of: (Int, [UInt8], Report).self) { group in
      var ready: [Int: ([UInt8], Report)] = [:]
      var next = 0
      var submitted = 0
      while next < chunks.count {
        while submitted < chunks.count && submitted - next < max(1, parallelism) {
          let index = submitted
          group.addTask {
            let (bytes, part) = self.renderChunk(list, chunks[index])
            return (index, bytes, part)
          }
          submitted += 1
        }
        guard let (index, bytes, part) = await group.next() else { break }
        ready[index] = (bytes, part)
        while let (bytes, part) = ready.removeValue(forKey: next) {
          if failure == nil {
            do throws(CompileError) { try sink.write(bytes) } catch { failure = error }
          }
          report.add(part)
          next += 1
        }
      }
    }
    if let failure { throw failure }
    try writeTrailer(list, report, to: &sink)
    try sink.flush()
    return report
  }

  /// Renders the names of a range of entries into bytes.
  func renderChunk(_ list: CompiledList, _ range: Range<Int>) -> ([UInt8], Report) {
    var report = Report()
    let set = list.names
    let covering = format.coversSubdomains
    let (prefix, suffix) = affixes
    let addresses = hostsAddress.addresses.map { Array("\($0) ".utf8) }
    var out: [UInt8] = []
    out.reserveCapacity(range.count * 40)
    for entry in range where !set.isRemoved(entry) {
      set.withName(entry) { name in
        if covering {
          if publicSuffixes.isPublicSuffix(name, hash: NameHash.hash(name)) {
            report.publicSuffixesLeftOut += 1
            if report.publicSuffixSamples.count < Findings.samplesPerReason {
              report.publicSuffixSamples.append(String(decoding: name, as: UTF8.self))
            }
            return
          }
          if compresses && hasBlockedParent(name, in: set) {
            report.compressed += 1
            return
          }
        }
        report.written += 1
        if format == .hosts {
          for address in addresses {
            out.append(contentsOf: address)
            out.append(contentsOf: name)
            out.append(0x0A)
          }
        } else {
          out.append(contentsOf: prefix)
          out.append(contentsOf: name)
          out.append(contentsOf: suffix)
          if format == .rpz {
            out.append(contentsOf: Self.wildcardPrefix)
            out.append(contentsOf: name)
            out.append(contentsOf: suffix)
          }
        }
      }
    }
    return (out, report)
  }

  /// Hosts output with several names per line.
  private func renderGrouped(_ list: CompiledList, to sink: inout ByteSink) throws(CompileError) -> Report {
    var report = Report()
    let set = list.names
    let addresses = hostsAddress.addresses.map { Array("\($0) ".utf8) }
    var group: [UInt8] = []
    var pending = 0
    for entry in 0..<set.entryCount where !set.isRemoved(entry) {
      report.written += 1
      set.withName(entry) { name in
        if !group.isEmpty { group.append(0x20) }
        group.append(contentsOf: name)
      }
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

  private var affixes: ([UInt8], [UInt8]) {
    let (prefix, suffix) =
      switch format {
      case .hosts: ("", "\n")
      case .domains: ("", "\n")
      case .adblock: ("||", "^\n")
      case .wildcard: ("*.", "\n")
      case .dnsmasq: ("address=/", "/#\n")
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

  private func hasBlockedParent(_ name: UnsafeBufferPointer<UInt8>, in set: NameSet) -> Bool {
    var index = 0
    while index < name.count {
      if name[index] == UInt8(ascii: ".") {
        let parent = UnsafeBufferPointer(rebasing: name[(index + 1)...])
        let hash = NameHash.hash(parent)
        if let entry = set.entry(of: parent, hash: hash), !set.isRemoved(entry),
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
