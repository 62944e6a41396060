import Foundation

/// Runs a program while sampling its peak resident memory from `/proc/PID/status` (`VmHWM`).
///
/// `ru_maxrss` from `wait4` cannot be used for this on Linux: a child starts with the high-water mark
/// of the process that forked it, so a small program started from a 60 MiB test process reports 60 MiB.
/// `VmHWM` belongs to the memory the program got at `exec`; it only grows, so sampling it every few
/// milliseconds misses at most what the program adds in its last moments.
public enum MemorySampler {
  /// What a sampled run left behind.
  public struct Result: Sendable {
    public var status: Int32
    /// Standard output and error, interleaved.
    public var output: String
    /// The highest `VmHWM` seen, in bytes.
    public var peakBytes: Int
  }

  /// Runs `executable` with `arguments` and extra `environment`, sampling every 5 ms.
  public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws
    -> Result
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let pid = process.processIdentifier
    // Threads of their own: reading, sampling and waiting must not hold workers of Swift's shared pool.
    async let output = onOwnThread { pipe.fileHandleForReading.readDataToEndOfFile() }
    let peak = await onOwnThread {
      var peak = 0
      while process.isRunning {
        peak = max(peak, highWaterMark(of: pid) ?? 0)
        usleep(5000)
      }
      process.waitUntilExit()
      return peak
    }
    return Result(
      status: process.terminationStatus, output: String(decoding: await output, as: UTF8.self), peakBytes: peak)
  }

  /// `VmHWM` of a running process, in bytes.
  public static func highWaterMark(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
  }
}
