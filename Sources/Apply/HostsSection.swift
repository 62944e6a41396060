import Blocklists
import Foundation

/// The lines SaneHosts puts between the markers of a hosts file, and the check they pass first.
public enum HostsSection {
  /// Above this many names, every lookup's scan of the hosts file gets noticeably slow.
  public static let adviceThreshold = 50_000

  /// The section's lines for a compiled list: a comment naming what it is, then one line per name (or
  /// per `namesPerLine` names) for each address.
  ///
  /// The lines hold no date, so applying the same names twice writes nothing the second time.
  public static func lines(
    for list: CompiledList, profile: String, address: Renderer.HostsAddress = .ipv4, namesPerLine: Int = 1
  ) async throws(CompileError) -> [String] {
    let renderer = Renderer(format: .hosts, hostsAddress: address, namesPerLine: namesPerLine, title: profile)
    var sink = ByteSink()
    _ = try await renderer.renderConcurrently(list, to: &sink)
    let sources = list.sources.map(\.name).joined(separator: ", ")
    var lines = [
      "# Profile \(profile): \(list.count) names from \(list.sources.count) source(s)\(sources.isEmpty ? "" : ": \(sources)")"
    ]
    lines.reserveCapacity(list.count + 1)
    for line in sink.memory.split(separator: 10) where line.first != UInt8(ascii: "#") {
      lines.append(String(decoding: line, as: UTF8.self))
    }
    return lines
  }

  /// Checks that every line would parse as a hosts entry: a comment, or an address and valid names.
  /// Returns the 1-based number and text of the first bad line.
  public static func firstInvalidLine(_ lines: [String]) -> (line: Int, text: String)? {
    for (index, line) in lines.enumerated() {
      var line = line
      let valid = line.withUTF8 { bytes -> Bool in
        if bytes.first == UInt8(ascii: "#") { return true }
        let fields = bytes.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        guard fields.count >= 2 else { return false }
        let address = UnsafeBufferPointer(rebasing: fields[0])
        return Address.classify(address) != .none && fields.dropFirst().allSatisfy(isHostname)
      }
      if !valid { return (index + 1, line) }
    }
    return nil
  }

  private static func isHostname(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard !name.isEmpty, name.count <= 253, name.first != 0x2E, name.first != 0x2D else { return false }
    return name.allSatisfy { byte in
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D
        || byte == 0x5F
    }
  }
}
