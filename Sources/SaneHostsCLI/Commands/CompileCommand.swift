import Apply
import ArgumentParser
import Blocklists
import Downloads
import Foundation
import Store

/// `sanehosts compile`: merges lists into one deduplicated block set in the format a blocker needs.
struct CompileCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compile",
    abstract: "Merge blocklists into one deduplicated list in the format a DNS blocker needs.",
    discussion: """
      Each INPUT is a file, - for standard input, or an https:// URL (http:// on this machine), in any supported format (hosts, plain domains, \
      adblock ||name^, wildcard *.name, dnsmasq, unbound, RPZ), recognised line by line unless \
      --input-format forces one. Invalid lines are counted by reason with samples, never dropped silently. \
      Addresses in hosts lines are never carried over: a line sending a name to a real address is rejected.

      Allow rules (--allow FILE) win over every block: example.com allows it and its subdomains, \
      =example.com only that name, *.example.com only its subdomains, /regex/ what the expression matches. \
      Deny rules (--deny FILE) add names.

      With --profile, or with no INPUT at all, the profile's saved copies (from `sanehosts update`) are \
      compiled with its allow and deny rules; with no INPUT and no --profile, the active profile.

      The summary goes to standard error (or standard output with --json). Exit status: 0 on success, \
      1 when an input, rules file or the output cannot be used, 3 when an input held no valid name at all \
      (the output is still written from the others).
      """)

  @Argument(help: "List files, URLs, or - for standard input (none: the active profile).")
  var inputs: [String] = []

  @OptionGroup var profile: ProfileOption

  @OptionGroup var store: StoreOptions

  @Option(name: .shortAndLong, help: "Output format.")
  var format: OutputFormat = .hosts

  @Option(name: .shortAndLong, help: "Write here (atomically) instead of to standard output.")
  var output: String?

  @Option(help: "Read every input as this format instead of recognising each line.")
  var inputFormat: InputFormat?

  @Option(help: "Allow rules file (repeatable).")
  var allow: [String] = []

  @Option(help: "Deny rules file (repeatable).")
  var deny: [String] = []

  @Option(help: "Address for hosts output: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.")
  var address: String = "ipv4"

  @Option(
    help: "Names per line: after one address (hosts), or in one server=/…/ line of up to 1,000 bytes (dnsmasq).")
  var namesPerLine: Int = 1

  @Flag(
    help:
      "Keep names whose parent is also blocked, in formats that block subdomains (not RPZ: there the names between them would no longer be blocked by BIND)."
  )
  var noCompress = false

  @Option(help: "The title in the output's header.")
  var title: String = "SaneHosts blocklist"

  @OptionGroup var printing: OutputOptions

  @Flag(name: .shortAndLong, help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    if printing.json && output == nil {
      throw ValidationError("--json needs --output: the list itself would mix with the summary.")
    }
    if namesPerLine < 1 { throw ValidationError("--names-per-line must be at least 1, not \(namesPerLine).") }
    if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
    _ = try hostsAddress()
  }

  func hostsAddress() throws -> Renderer.HostsAddress { try Renderer.HostsAddress(option: address) }

  func run() async throws {
    let started = ContinuousClock.now
    var rules = RuleSet()
    for path in allow { rules.allow += try RuleSet.parse(try Self.read(path), origin: path) }
    for path in deny { rules.deny += try RuleSet.parse(try Self.read(path), origin: path, deny: true) }
    var sources: [ListSource] = []
    // The profile alone: its block set file, when current, is the compile.
    var saved: CompiledList?
    if profile.name != nil || inputs.isEmpty {
      let (store, profileSources, profileRules) = try profileInputs()
      if inputs.isEmpty && allow.isEmpty && deny.isEmpty {
        saved = try await ProfileList.compile(profile: self.profile.name, in: store).list
      }
      sources += profileSources
      rules.allow = profileRules.allow + rules.allow
      rules.deny = profileRules.deny + rules.deny
    }
    let downloads = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sanehosts-compile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: downloads) }
    for input in inputs {
      if input == "-" {
        sources.append(ListSource(name: "standard input", location: .standardInput, format: inputFormat))
      } else if input.contains("://") && !input.lowercased().hasPrefix("file://") {
        var source = ListSource.file(try await Self.download(input, into: downloads), format: inputFormat)
        source.name = input
        sources.append(source)
      } else {
        let path = input.lowercased().hasPrefix("file://") ? (URL(string: input)?.path ?? input) : input
        sources.append(ListSource.file(path, format: inputFormat))
      }
    }
    let renderer = Renderer(
      format: format, hostsAddress: try hostsAddress(), namesPerLine: namesPerLine, compresses: !noCompress,
      title: title)

    let list: CompiledList
    let report: Renderer.Report
    if let saved {
      list = saved
    } else {
      list = try await Compiler().compile(sources, rules: rules)
    }
    if let output {
      report = try await OutputFile.write(output, directAfter: OutputFile.largeFile) {
        (sink) async throws(CompileError) in
        try await renderer.renderConcurrently(list, to: &sink)
      }
    } else {
      var sink = ByteSink(descriptor: 1, path: "standard output")
      report = try await renderer.renderConcurrently(list, to: &sink)
    }

    let summary = CompileSummary(list: list, report: report, format: format, elapsed: ContinuousClock.now - started)
    if printing.json {
      Terminal.writeOutput(summary.json() + "\n")
    } else if !quiet {
      Terminal.writeError(summary.text())
    }
    if list.sources.contains(where: { $0.findings.names == 0 }) { throw ExitCode(3) }
  }

  /// The saved copies of the profile's enabled sources, and its rules.
  private func profileInputs() throws -> (Store, [ListSource], RuleSet) {
    let store = try store.open()
    let profile = try store.profile(self.profile.name)
    let members = try store.sources(in: profile.name).filter(\.enabled)
    let rules = try store.ruleSet(for: profile)
    var sources: [ListSource] = []
    for member in members {
      guard let file = member.source.cacheFile else {
        if !quiet { Terminal.writeError("warning: \(member.source.key) has no saved copy yet and is left out.\n") }
        continue
      }
      var source = ListSource.file(store.directory.file(file).path, format: member.source.format)
      source.name = member.source.key
      sources.append(source)
    }
    if sources.isEmpty && inputs.isEmpty {
      throw StoreError.invalid(
        value: profile.name,
        reason: members.isEmpty
          ? "has no enabled source: add one with `sanehosts sources add`, or give INPUT files"
          : "has no saved copy of any source yet: run `sanehosts update` first")
    }
    return (store, sources, rules)
  }

  /// Downloads a URL input to a temporary file and returns its path.
  private static func download(_ text: String, into directory: URL) async throws -> String {
    guard let url = URL(string: text) else { throw DownloadError.invalidURL(text) }
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var configuration = DownloadConfiguration()
    configuration.temporaryDirectory = directory
    return try await DownloadManager.withManager(configuration: configuration) { manager in
      try await Interrupts.cancelling(onSignal: { await manager.cancelAll() }) {
        for await event in manager.download(DownloadRequest(url: url)) {
          switch event {
          case .completed(let done): return done.fileURL.path
          case .failed(.cancelled): throw ExitCode(130)
          case .failed(let error): throw error
          default: continue
          }
        }
        throw ExitCode(130)
      }
    }
  }

  private static func read(_ path: String) throws -> String {
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw CompileError.unreadable(path: path, detail: "not a readable UTF-8 text file")
    }
  }
}

extension InputFormat: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

extension Renderer.HostsAddress {
  /// Parses `--address`: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.
  init(option text: String) throws {
    switch text {
    case "ipv4": self = .ipv4
    case "ipv6": self = .ipv6
    case "both": self = .both
    default:
      guard Address.classify(text) != .none else {
        throw ValidationError("--address must be ipv4, ipv6, both or an IP address, not “\(text)”.")
      }
      self = .custom(text)
    }
  }
}
