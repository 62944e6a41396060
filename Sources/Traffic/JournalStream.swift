import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A running `journalctl`: its JSON lines read from a pipe, whole lines handed out, its errors kept in a
/// temporary file. Terminated when released.
final class JournalStream: @unchecked Sendable {
  // One owner at a time: the reader or the follower that made it (not shared between tasks).
  private let process = Process()
  private let output: FileHandle
  private let errorFile: URL
  private var partial: [UInt8] = []
  /// The buffer each read fills, allocated once.
  private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

  /// Starts `journalctl` with `arguments`; `source` names it in errors.
  init(_ arguments: [String], source: LogSource, nonBlocking: Bool = false) throws(TrafficError) {
    let pipe = Pipe()
    errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("sanehosts-journal-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["journalctl"] + arguments
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      process.standardError = try FileHandle(forWritingTo: errorFile)
      try process.run()
    } catch {
      try? FileManager.default.removeItem(at: errorFile)
      throw .unreadable(
        path: source.description, reason: "cannot run journalctl (package systemd): \(error.localizedDescription)")
    }
    output = pipe.fileHandleForReading
    if nonBlocking {
      let descriptor = output.fileDescriptor
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
    try? FileManager.default.removeItem(at: errorFile)
  }

  /// The next bytes, waiting for them; nil at the end.
  func readBlocking() -> [UInt8]? {
    while true {
      let count = buffer.withUnsafeMutableBytes { read(output.fileDescriptor, $0.baseAddress, $0.count) }
      if count > 0 { return Array(buffer[..<count]) }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  /// The bytes written since the last call, without waiting (a non-blocking stream).
  func readAvailable() -> [UInt8] {
    var result: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { read(output.fileDescriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      result += buffer[..<count]
    }
    return result
  }

  /// Hands each whole line of `chunk` (with what was left of the previous one) to `body`.
  func lines(_ chunk: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
    var start = 0
    for index in chunk.indices where chunk[index] == 0x0A {
      if partial.isEmpty {
        body(chunk[start..<index])
      } else {
        partial += chunk[start..<index]
        body(partial[...])
        partial.removeAll(keepingCapacity: true)
      }
      start = index + 1
    }
    partial += chunk[start...]
  }

  /// Waits for journalctl to end; its exit status.
  func wait() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Whether journalctl has ended.
  var hasEnded: Bool { !process.isRunning }

  /// What journalctl wrote to its standard error.
  func errors() -> String {
    (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
  }
}

/// Follows a server's log in the journal as `journalctl --follow` shows it: the entries written since
/// each `poll`, as the server's own lines.
public struct JournalFollower: Sendable {
  /// The source followed.
  public let source: LogSource
  private let stream: JournalStream
  /// Lines handed out.
  public private(set) var lineNumber = 0

  /// Starts following `source` from now.
  public init(_ source: LogSource) throws(TrafficError) {
    self.source = source
    stream = try JournalStream(
      Journal.arguments(for: source, since: nil, follow: true), source: source, nonBlocking: true)
  }

  /// Hands each entry written since the last call to `body`; throws when journalctl ended (it cannot
  /// read the journal).
  public mutating func poll(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) throws(TrafficError) {
    var number = lineNumber
    let kind = source.kind
    stream.lines(stream.readAvailable()) { json in
      number += 1
      guard let line = Journal.entryLine(json, kind: kind) else { return }
      line.withUnsafeBufferPointer { body($0, number) }
    }
    lineNumber = number
    if stream.hasEnded {
      let errors = stream.errors().trimmingCharacters(in: .whitespacesAndNewlines)
      throw .unreadable(path: source.description, reason: errors.isEmpty ? "journalctl ended" : errors)
    }
  }
}
