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
    let body = try await body(for: list, profile: profile, address: address, namesPerLine: namesPerLine)
    return body.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The section's body as bytes: the same lines as `lines(for:…)`, each ending in a newline, made
  /// without a string per line.
  public static func body(
    for list: CompiledList, profile: String, address: Renderer.HostsAddress = .ipv4, namesPerLine: Int = 1
  ) async throws(CompileError) -> [UInt8] {
    let renderer = Renderer(format: .hosts, hostsAddress: address, namesPerLine: namesPerLine, title: profile)
    var sink = ByteSink()
    _ = try await renderer.renderConcurrently(list, to: &sink)
    let sources = list.sources.map(\.name).joined(separator: ", ")
    var body = Array(
      "# Profile \(profile): \(list.count) names from \(list.sources.count) source(s)\(sources.isEmpty ? "" : ": \(sources)")\n"
        .utf8)
    let rendered = sink.memory
    body.reserveCapacity(body.count + rendered.count)
    rendered.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var start = 0
      while start < buffer.count {
        let found = memchr(base + start, 10, buffer.count - start)
        let end = found.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
        // The renderer's own header comments are left out; the section has its own.
        if end > start && buffer[start] != UInt8(ascii: "#") {
          body.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
          body.append(10)
        }
        start = end + 1
      }
    }
    return body
  }

  /// The last name of the last entry in a section body, or in a hosts file's section.
  public static func lastName(in bytes: [UInt8]) -> String? {
    var region = 0..<bytes.count
    if let location = (try? ManagedSection.locate(in: bytes)) ?? nil { region = location.body }
    var end = region.upperBound
    while end > region.lowerBound, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
    var start = end
    while start > region.lowerBound, bytes[start - 1] != 10 { start -= 1 }
    guard start < end, bytes[start] != UInt8(ascii: "#") else { return nil }
    var nameStart = end
    while nameStart > start, bytes[nameStart - 1] != 0x20 && bytes[nameStart - 1] != 0x09 { nameStart -= 1 }
    return nameStart < end ? String(decoding: bytes[nameStart..<end], as: UTF8.self) : nil
  }

  /// The first line of a body (see `body(for:…)`) that would not parse as a hosts entry, 1-based, with
  /// its text.
  public static func firstInvalidLine(body: [UInt8]) -> (line: Int, text: String)? {
    // One pass over the bytes, lines found with `memchr` (searched element by element and entered
    // line by line, the check of a 415,768-line section took 45 ms).
    body.withUnsafeBufferPointer { buffer -> (line: Int, text: String)? in
      guard let base = buffer.baseAddress else { return nil }
      var number = 0
      var start = 0
      while start < buffer.count {
        number += 1
        let end =
          memchr(base + start, 10, buffer.count - start).map { UnsafeRawPointer(base).distance(to: $0) }
          ?? buffer.count
        let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
        if !isValid(line) { return (number, String(decoding: line, as: UTF8.self)) }
        start = end + 1
      }
      return nil
    }
  }

  /// Checks that every line would parse as a hosts entry: a comment, or an address and valid names.
  /// Returns the 1-based number and text of the first bad line.
  public static func firstInvalidLine(_ lines: [String]) -> (line: Int, text: String)? {
    for (index, line) in lines.enumerated() {
      var line = line
      if !line.withUTF8(isValid) { return (index + 1, line) }
    }
    return nil
  }

  /// Whether one line is a comment, or an address and valid names.
  private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.first == UInt8(ascii: "#") { return true }
    var index = 0
    var fields = 0
    var addressValid = false
    while index < bytes.count {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      guard index < bytes.count else { break }
      var end = index
      while end < bytes.count, bytes[end] != 0x20 && bytes[end] != 0x09 { end += 1 }
      let field = UnsafeBufferPointer(rebasing: bytes[index..<end])
      if fields == 0 {
        addressValid = Address.classify(field) != .none
        if !addressValid { return false }
      } else if !isHostname(field[...]) {
        return false
      }
      fields += 1
      index = end
    }
    return fields >= 2 && addressValid
  }

  private static func isHostname(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard !name.isEmpty, name.count <= 253, name.first != 0x2E, name.first != 0x2D else { return false }
    for byte in name {
      let lower = byte &- 0x61 < 26
      let digit = byte &- 0x30 < 10
      if !(lower || digit || byte == 0x2E || byte == 0x2D || byte == 0x5F) { return false }
    }
    return true
  }
}
