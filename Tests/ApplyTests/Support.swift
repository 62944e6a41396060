import Apply
import Blocklists
import Foundation
import Locking
import Store

/// A process runner that runs nothing: it records each call and answers from a script.
final class RecordingRunner: ProcessRunning {
  /// What the fake does for a call: an output, or an error to throw.
  enum Reply: Sendable {
    case output(ProcessOutput)
    case failure(ProcessRunner.Error)
  }

  private let state = Locked<[[String]]>([])
  private let reply: @Sendable (String, [String]) -> Reply

  /// A runner answering every call with `reply` (default: success, no output).
  init(_ reply: @escaping @Sendable (String, [String]) -> Reply = { _, _ in .output(ProcessOutput(status: 0)) }) {
    self.reply = reply
  }

  /// Every call so far, the executable first.
  var calls: [[String]] { state.withLock { $0 } }

  func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
    state.withLock { $0.append([executable] + arguments) }
    switch reply(executable, arguments) {
    case .output(let output): return output
    case .failure(let error): throw error
    }
  }
}

/// Names blocked by the sample list: `metrics.website` itself is not blocked, only its `x.` subdomain.
let sampleNames = ["ads.website", "tracker.blog", "x.metrics.website"]

/// A small compiled list of `sampleNames`.
func sampleList() async throws -> CompiledList {
  try await Compiler().compile([.text(sampleNames.joined(separator: "\n") + "\n", name: "t")], rules: RuleSet())
}

/// A fixed date, so rendered files are the same on every run.
let sampleDate = Date(timeIntervalSince1970: 1_800_000_000)

/// Renders `target` for the sample list into `directory` and returns the file's path.
func writeSample(_ target: ServerTarget, in directory: URL, name: String? = nil) async throws -> String {
  let bytes = try await target.render(try await sampleList(), title: "Test list", date: sampleDate)
  let url = directory.appending(path: name ?? "sanehosts-\(target.rawValue)")
  try Data(bytes).write(to: url)
  return url.path
}

extension Store {
  /// Saves `list` as `update` leaves a compiled profile: its block set file under the active profile's
  /// current fingerprint, and the compile recorded with `names` names. Returns the file's path.
  @discardableResult
  func saveAsCompiled(_ list: CompiledList, names: Int, withLookupTable: Bool = true) async throws -> String {
    let profile = try activeProfile()
    let fingerprint = try currentFingerprint(of: profile)
    let file = "profiles/\(profile.id)-\(fingerprint.prefix(16)).blockset"
    try FileManager.default.createDirectory(at: directory.profiles, withIntermediateDirectories: true)
    try list.writeArchive(
      to: directory.file(file).path, fingerprint: fingerprint, withLookupTable: withLookupTable)
    let now = Date()
    _ = try await commit(
      [],
      run: UpdateRun(
        profileID: profile.id, profileName: profile.name, startedAt: now, finishedAt: now, forced: false,
        results: [], names: names),
      compiled: CompiledProfile(
        profileID: profile.id, file: file, sha256: "", names: names, fingerprint: fingerprint, compiledAt: now,
        ruleCounts: [:]))
    return directory.file(file).path
  }
}
