import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a finished program left behind.
public struct ProcessOutput: Sendable, Hashable {
  /// The exit status; 128 + the signal number when a signal ended it, as a shell reports it.
  public var status: Int32
  /// Everything it wrote to standard output.
  public var standardOutput: String
  /// Everything it wrote to standard error.
  public var standardError: String

  /// Creates an output.
  public init(status: Int32, standardOutput: String = "", standardError: String = "") {
    self.status = status
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Standard output and standard error together, trimmed, for messages.
  public var combined: String {
    [standardOutput, standardError].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
      .joined(separator: "\n")
  }
}

/// Runs other programs; tests substitute a fake that records the calls.
public protocol ProcessRunning: Sendable {
  /// Runs `executable` (a bare name is looked up on PATH) with `arguments` and waits for it to finish.
  func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput
}

/// Runs programs as `ChildProcess`es: no standard input, both output pipes read concurrently.
public struct ProcessRunner: ProcessRunning {
  /// Why a program could not be started.
  public enum Error: Swift.Error, Sendable, Hashable {
    /// No executable of this name on PATH, /usr/sbin or /sbin (or at this path).
    case notFound(String)
    /// The system refused to start it.
    case launchFailed(String, detail: String)
  }

  /// Directories searched after PATH: system tools such as `dnsmasq` live there, and a user's PATH often
  /// leaves them out.
  public static let systemDirectories = ["/usr/sbin", "/sbin"]

  /// Creates a runner.
  public init() {}

  /// The absolute path of `name`: itself when it holds a slash, else the first executable of that name on
  /// `path` (default: the PATH variable), then `/usr/sbin` and `/sbin`.
  public static func which(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    let manager = FileManager.default
    if name.contains("/") { return manager.isExecutableFile(atPath: name) ? name : nil }
    guard !name.isEmpty else { return nil }
    let directories = (path ?? "").split(separator: ":").map(String.init) + systemDirectories
    for directory in directories where !directory.isEmpty {
      let candidate = "\(directory)/\(name)"
      var isDirectory: ObjCBool = false
      if manager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
        manager.isExecutableFile(atPath: candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// Runs the program and waits for it; cancelling the task sends it SIGTERM.
  public func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
    guard let path = Self.which(executable) else { throw Error.notFound(executable) }
    let output = try Self.pipe(path)
    let errors: (read: Int32, write: Int32)
    do {
      errors = try Self.pipe(path)
    } catch {
      close(output.read)
      close(output.write)
      throw error
    }
    let child: ChildProcess
    do {
      child = try ChildProcess(path, arguments, standardOutput: output.write, standardError: errors.write)
      close(output.write)
      close(errors.write)
    } catch {
      for descriptor in [output.read, output.write, errors.read, errors.write] { close(descriptor) }
      throw error
    }
    return await withTaskCancellationHandler {
      // Both pipes are read at once so a program filling one never blocks on it.
      async let out = Self.readAll(output.read)
      async let err = Self.readAll(errors.read)
      let status = await child.status()
      return ProcessOutput(
        status: status, standardOutput: String(decoding: await out, as: UTF8.self),
        standardError: String(decoding: await err, as: UTF8.self))
    } onCancel: {
      child.send(SIGTERM)
    }
  }

  /// A one-way channel for the program's output: a socket pair, which, unlike `pipe`, Swift can create
  /// close-on-exec in one step, so no other program started at the same moment inherits it (and keeps it
  /// open, so that its reader never sees the end).
  private static func pipe(_ path: String) throws(Error) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let type = SOCK_STREAM | SOCK_CLOEXEC
    #endif
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
      throw .launchFailed(path, detail: String(cString: strerror(errno)))
    }
    shutdown(ends[0], Int32(SHUT_WR))
    shutdown(ends[1], Int32(SHUT_RD))
    return (ends[0], ends[1])
  }

  /// Reads a descriptor to its end on a thread of its own (the read blocks), then closes it.
  ///
  /// A thread of its own, not `DispatchQueue.global()`: on Linux that queue's workers are the ones
  /// Swift's tasks run on, about one a core, and a read held there for the child's whole run (a checker,
  /// a reload) would hold a worker the dashboard's other requests need.
  private static func readAll(_ descriptor: Int32) async -> Data {
    await withCheckedContinuation { continuation in
      Thread {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        continuation.resume(returning: (try? handle.readToEnd()) ?? Data())
      }.start()
    }
  }
}

extension ProcessRunner.Error: LocalizedError {
  /// What went wrong, naming the value concerned.
  public var errorDescription: String? {
    switch self {
    case .notFound(let name):
      "Cannot find the program “\(name)” on PATH, /usr/sbin or /sbin."
    case .launchFailed(let path, let detail):
      "Cannot start \(path): \(detail)."
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .notFound(let name):
      "Install the package that provides \(name), or put its directory on PATH."
    case .launchFailed(let path, _):
      "Check that \(path) is an executable program you are allowed to run."
    }
  }
}
