import CZlib
import Foundation

/// Reads a log file, plain or gzip-compressed (zlib tells them apart), a line at a time from a fixed
/// buffer: a file of any size costs the same memory.
///
/// A line break is `\n` (a `\r` before it is dropped). A line longer than `maximumLine` bytes or holding a
/// NUL byte is skipped and counted: a log is text, so either means the file is damaged or not a log.
public struct LogReader: ~Copyable {
  /// Longer lines are skipped.
  public static let maximumLine = 64 * 1024

  private let file: gzFile
  private let path: String
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var ended = false
  /// Bytes of text read so far.
  private var bytesRead = 0
  /// Lines handed out so far.
  public private(set) var lineNumber = 0

  /// Opens `path` for reading. A file named `….gz` must be gzip data: one that is not (random bytes, a
  /// plain log renamed) is refused rather than read as text.
  public init(path: String) throws(TrafficError) {
    guard let file = gzopen(path, "rb") else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    gzbuffer(file, 256 * 1024)
    if path.hasSuffix(".gz") {
      // Right after gzopen, gzdirect reads the start of the file to tell.
      if gzdirect(file) == 1 {
        gzclose(file)
        throw .unreadable(path: path, reason: "it is named .gz but is not gzip data")
      }
    }
    self.file = file
    self.path = path
    buffer = [UInt8](repeating: 0, count: 256 * 1024)
  }

  deinit { gzclose(file) }

  /// Calls `body` with each line; lines that are too long or hold a NUL byte are counted in `findings`.
  public mutating func forEachLine(
    findings: inout LogFindings, _ body: (UnsafeBufferPointer<UInt8>, Int, inout LogFindings) throws -> Void
  ) throws {
    var skippingLongLine = false
    while true {
      // A whole line in the buffer?
      let found = buffer.withUnsafeBufferPointer { raw in
        memchr(raw.baseAddress! + start, 0x0A, end - start).map {
          UnsafeRawPointer($0) - UnsafeRawPointer(raw.baseAddress!)
        }
      }
      if let newline = found {
        lineNumber += 1
        findings.lines += 1
        if skippingLongLine {
          skippingLongLine = false
        } else {
          try deliver(start..<newline, findings: &findings, body)
        }
        start = newline + 1
        continue
      }
      if ended {
        if start < end {
          lineNumber += 1
          findings.lines += 1
          if !skippingLongLine { try deliver(start..<end, findings: &findings, body) }
        }
        return
      }
      // Move what is left to the front and read more.
      if start > 0 {
        buffer.withUnsafeMutableBufferPointer { raw in
          _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
        }
        end -= start
        start = 0
      }
      if end > Self.maximumLine {
        // Too long for a log line: counted once, its bytes dropped until its end.
        let number = lineNumber + 1
        buffer.withUnsafeBufferPointer { raw in
          findings.skip(
            "line longer than \(Self.maximumLine) bytes", file: path, line: number,
            text: UnsafeBufferPointer(rebasing: raw[0..<120]))
        }
        skippingLongLine = true
        end = 0
      }
      let read = buffer.withUnsafeMutableBufferPointer { raw in
        gzread(file, raw.baseAddress! + end, UInt32(raw.count - end))
      }
      if read < 0 || read == 0 {
        // zlib ends a truncated stream as a short read with Z_BUF_ERROR, and damaged data with
        // Z_DATA_ERROR: what was read counts, the rest is reported, never silently left out.
        var code: Int32 = 0
        let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
        if read < 0 || code == Z_BUF_ERROR || code == Z_DATA_ERROR {
          let reason =
            code == Z_BUF_ERROR ? "the gzip data ends early (a truncated file)" : "damaged gzip data (\(message))"
          findings.damagedFiles.append(
            LogFindings.DamagedFile(file: path, reason: reason, linesRead: lineNumber, bytesRead: bytesRead))
          // The partial line before the damage is not a line: dropped with the rest.
          end = start
        }
        ended = true
        continue
      }
      bytesRead += Int(read)
      end += Int(read)
    }
  }

  private func deliver(
    _ range: Range<Int>, findings: inout LogFindings,
    _ body: (UnsafeBufferPointer<UInt8>, Int, inout LogFindings) throws -> Void
  ) throws {
    var upper = range.upperBound
    if upper > range.lowerBound, buffer[upper - 1] == 0x0D { upper -= 1 }
    try buffer.withUnsafeBufferPointer { raw in
      let line = UnsafeBufferPointer(rebasing: raw[range.lowerBound..<upper])
      if line.count > Self.maximumLine {
        findings.skip(
          "line longer than \(Self.maximumLine) bytes", file: path, line: lineNumber,
          text: UnsafeBufferPointer(rebasing: line.prefix(120)))
      } else if line.contains(0) {
        findings.skip("NUL byte in line", file: path, line: lineNumber, text: line)
      } else {
        try body(line, lineNumber, &findings)
      }
    }
  }
}
