import Foundation

/// A compression bomb for fault injection: a small gzip stream that inflates to a huge run of zeros.
public enum GzipBomb {
  /// `inflatedSize` zero bytes through `gzip -1` (Debian's gzip is always installed): about 1 kB on the
  /// wire per MiB inflated.
  public static func make(inflatedSize: Int) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "head -c \(inflatedSize) /dev/zero | gzip -1"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, data.count > 20 else {
      throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: "gzip"])
    }
    return Array(data)
  }

  /// A raw HTTP response carrying `bomb` with `Content-Encoding: gzip` and its true length.
  public static func response(_ bomb: [UInt8]) -> FixtureServer.Response {
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
    return .raw(Array(head.utf8) + bomb)
  }
}
