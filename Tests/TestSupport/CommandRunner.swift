import Foundation

/// Runs the built `sanehosts` executable as a user would, capturing its output.
public struct CommandRunner: Sendable {
  /// What a finished run left behind.
  public struct Result: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
  }

  /// The executable's location: next to the test bundle in the build folder.
  public let executable: URL
  /// Extra environment variables, on top of the test process's own.
  public var environment: [String: String] = [:]

  /// Finds the `sanehosts` binary: `$SANEHOSTS_TEST_EXECUTABLE` when set (scripts/test.sh sets it to the
  /// release build, the binary users run, so that a fault of the optimized build fails the tests), else the
  /// one built alongside the tests.
  public init(name: String = "sanehosts") throws {
    if name == "sanehosts", let given = ProcessInfo.processInfo.environment["SANEHOSTS_TEST_EXECUTABLE"],
      !given.isEmpty
    {
      guard FileManager.default.isExecutableFile(atPath: given) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: given])
      }
      executable = URL(fileURLWithPath: given)
      return
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appending(path: name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        executable = candidate
        return
      }
      directory.deleteLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
  }

  /// Starts the command; `whileRunning` can act on the running process (send a signal) before it is awaited.
  public func run(
    _ arguments: [String], input: Data? = nil, whileRunning: @Sendable (Process) async throws -> Void = { _ in }
  ) async throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      try inputPipe.fileHandleForWriting.write(contentsOf: input)
      try inputPipe.fileHandleForWriting.close()
    }
    // Drain both pipes concurrently so a chatty process never blocks on a full pipe.
    async let outData = Self.readAll(output.fileHandleForReading)
    async let errData = Self.readAll(error.fileHandleForReading)
    try await whileRunning(process)
    let (out, err) = await (outData, errData)
    await onOwnThread { process.waitUntilExit() }
    return Result(
      status: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }

  private static func readAll(_ handle: FileHandle) async -> Data {
    await onOwnThread { (try? handle.readToEnd()) ?? Data() }
  }
}
