#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The part of a hosts file that SaneHosts owns: the lines between two fixed marker lines.
///
/// Everything outside the markers is kept byte for byte, including CRLF line ends and a missing final
/// newline. The rules, which make `remove(apply(x)) == x` and `apply(apply(x)) == apply(x)` hold:
/// - The section runs from the start of the begin marker's line to the end of the end marker's line,
///   its newline included.
/// - Added to a file whose last line has no newline, the section is preceded by one and written without
///   a final newline of its own: a section that ends the file without a newline also owns the newline
///   before it, so removing it gives back the unterminated last line.
/// - An existing section is replaced where it stands; a new one goes at the end.
/// - The section's lines use the file's line ending: CRLF when the first line outside the section ends
///   with CRLF (with no line outside it, the old section's ending; LF for a file without newlines).
public enum ManagedSection {
  /// The first line of the section.
  public static let beginMarker = "# >>> SaneHosts: managed section, do not edit (remove with `sanehosts disable`) >>>"
  /// The last line of the section.
  public static let endMarker = "# <<< SaneHosts: end of managed section <<<"

  /// Where a section stands in a file.
  public struct Location: Sendable, Hashable {
    /// The bytes the section owns (markers, body, and the newline that goes with it).
    public var range: Range<Int>
    /// The byte range of the body lines between the markers.
    public var body: Range<Int>
  }

  /// Why a file's section cannot be edited safely.
  public enum Problem: Error, Sendable, Hashable {
    /// A begin marker without an end marker after it (line numbers from 1).
    case unterminated(beginLine: Int)
    /// An end marker without a begin marker before it.
    case unexpectedEnd(line: Int)
    /// More than one section.
    case duplicate(firstLine: Int, secondLine: Int)
    /// A body line that is itself a marker, or holds a line break or a NUL byte.
    case invalidBody(line: Int)
  }

  /// Finds the section; nil when the file has none.
  public static func locate(in file: [UInt8]) throws(Problem) -> Location? {
    var begin: (line: Int, start: Int, bodyStart: Int)?
    var found: Location?
    var foundLine = 0
    var lineNumber = 0
    var start = 0
    while start < file.count {
      lineNumber += 1
      let newline = Self.newline(in: file, from: start)
      let end = newline ?? file.count
      let next = newline.map { $0 + 1 } ?? file.count
      // Only a line starting with "#" can be a marker: the rest is skipped without comparing.
      guard file[start] == UInt8(ascii: "#") else {
        start = next
        continue
      }
      var content = file[start..<end]
      if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
      if content.elementsEqual(beginBytes) {
        if let open = begin { throw .unterminated(beginLine: open.line) }
        if found != nil { throw .duplicate(firstLine: foundLine, secondLine: lineNumber) }
        begin = (lineNumber, start, next)
      } else if content.elementsEqual(endBytes) {
        guard let open = begin else { throw .unexpectedEnd(line: lineNumber) }
        var range = open.start..<next
        // A section ending the file without a newline owns the newline before it.
        if newline == nil, open.start > 0, file[open.start - 1] == UInt8(ascii: "\n") {
          range = (open.start - 1)..<next
        }
        found = Location(range: range, body: open.bodyStart..<start)
        foundLine = open.line
        begin = nil
      }
      start = next
    }
    if let open = begin { throw .unterminated(beginLine: open.line) }
    return found
  }

  /// The file with its section holding `lines` (replacing any section it had).
  public static func apply(_ lines: [String], to file: [UInt8]) throws(Problem) -> [UInt8] {
    for (index, line) in lines.enumerated() where line.utf8.contains(10) {
      throw .invalidBody(line: index + 1)
    }
    return try apply(body: lines.isEmpty ? [] : Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
  }

  /// The file with its section's body replaced by `body` (lines, each ending in a newline; LF is
  /// turned into CRLF in a file that uses it), or a section added at the end if it has none.
  public static func apply(body: [UInt8], to file: [UInt8]) throws(Problem) -> [UInt8] {
    if let last = body.last, last != 10 { throw .invalidBody(line: body.count { $0 == 10 } + 1) }
    var line = 1
    var start = 0
    for (index, byte) in body.enumerated() where byte == 0 || byte == 10 || byte == 13 {
      guard byte == 10 else { throw .invalidBody(line: line) }
      if body[start] == UInt8(ascii: "#") {
        let text = body[start..<index]
        if text.elementsEqual(beginBytes) || text.elementsEqual(endBytes) { throw .invalidBody(line: line) }
      }
      line += 1
      start = index + 1
    }
    // Take the old section out, then put the new one where it stood (or at the end).
    let location = try locate(in: file)
    let prefix = location.map { Array(file[..<$0.range.lowerBound]) } ?? file
    let suffix = location.map { Array(file[$0.range.upperBound...]) } ?? []
    // The line ending of the bytes around the section (a newline the section owns is not theirs: after
    // an unterminated last line ending in "\r" it would look like CRLF); failing that, the old section's.
    let crlf = usesCRLF(prefix + suffix) ?? location.map { file[$0.body.lowerBound - 2] == 13 } ?? false
    let ending: [UInt8] = crlf ? [13, 10] : [10]
    var section: [UInt8] = []
    section.reserveCapacity(body.count + beginBytes.count + endBytes.count + 4)
    section += beginBytes
    section += ending
    if crlf {
      for byte in body {
        if byte == 10 { section.append(13) }
        section.append(byte)
      }
    } else {
      section += body
    }
    section += endBytes
    section += ending
    if !suffix.isEmpty { return prefix + section + suffix }
    if prefix.isEmpty || prefix.last == 10 { return prefix + section }
    return prefix + [10] + section.dropLast(ending.count)
  }

  /// The file without its section (unchanged when it has none).
  public static func remove(from file: [UInt8]) throws(Problem) -> [UInt8] {
    guard let location = try locate(in: file) else { return file }
    return Array(file[..<location.range.lowerBound]) + Array(file[location.range.upperBound...])
  }

  /// The body lines of the section, if there is one.
  public static func lines(in file: [UInt8]) throws(Problem) -> [String]? {
    guard let location = try locate(in: file) else { return nil }
    // Split bytes, not Characters: in a String "\r\n" is one Character and would not split at "\n".
    return file[location.body].split(separator: 10, omittingEmptySubsequences: false).dropLast().map { line in
      String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self)
    }
  }

  /// The index of the next newline at or after `start`, found with `memchr`.
  private static func newline(in file: [UInt8], from start: Int) -> Int? {
    file.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, start < buffer.count,
        let found = memchr(base + start, 10, buffer.count - start)
      else { return nil }
      return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }
  }

  private static let beginBytes = Array(beginMarker.utf8)
  private static let endBytes = Array(endMarker.utf8)

  /// Whether the first line ends with CRLF; nil without a newline.
  private static func usesCRLF(_ file: [UInt8]) -> Bool? {
    guard let newline = file.firstIndex(of: 10) else { return nil }
    return newline > 0 && file[newline - 1] == 13
  }
}
