import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Facts about the terminal the command writes to.
enum Terminal {
  /// An output stream of the process.
  enum Stream {
    case standardOutput, standardError

    var descriptor: Int32 { self == .standardOutput ? 1 : 2 }
  }

  /// Whether the stream is a terminal (and `TERM` is not `dumb`), so live redraws make sense.
  static func isInteractive(_ stream: Stream) -> Bool {
    isInteractive(descriptor: stream.descriptor, environment: ProcessInfo.processInfo.environment)
  }

  /// Whether a file descriptor is a terminal that can show redraws under this environment.
  static func isInteractive(descriptor: Int32, environment: [String: String]) -> Bool {
    isatty(descriptor) == 1 && environment["TERM"] != "dumb"
  }

  /// The width of the terminal in columns, 80 when unknown.
  static func width(_ stream: Stream) -> Int {
    var size = winsize()
    if ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
  }

  /// Writes text to standard error without buffering.
  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Writes text to standard output.
  static func writeOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
