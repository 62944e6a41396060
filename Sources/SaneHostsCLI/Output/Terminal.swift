import Foundation
import Locking

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
    write(Array(text.utf8), to: 2)
  }

  /// Writes text to standard output.
  static func writeOutput(_ text: String) {
    write(Array(text.utf8), to: 1)
  }

  /// Whether a reader of standard output or error went away (`sanehosts update | head -1`): from then on
  /// nothing more is written, the command is cancelled as by a signal (it cleans up: no partial file, no
  /// staging folder, no lock left) and the process exits quietly with 141, as one ended by SIGPIPE.
  static var pipeClosed: Bool { closed.withLock { $0 } }

  private static let closed = Locked(false)

  /// Writes all of `bytes` to `descriptor`; false once the reader is gone (see `pipeClosed`).
  @discardableResult
  static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    guard !pipeClosed else { return false }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written >= 0 {
        offset += written
      } else if errno == EINTR || errno == EAGAIN {
        continue
      } else if errno == EPIPE {
        closed.withLock { $0 = true }
        SignalHub.shared.raise(SIGPIPE)
        return false
      } else {
        return false
      }
    }
    return true
  }
}
