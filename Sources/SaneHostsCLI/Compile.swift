import ArgumentParser
import Blocklists
import Foundation

/// `sanehosts compile`: merges lists into one deduplicated block set in the format a blocker needs.
struct Compile: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Merge blocklists into one deduplicated list in the format a DNS blocker needs.",
    discussion: """
      Each INPUT is a file or - for standard input, in any supported format (hosts, plain domains, \
      adblock ||name^, wildcard *.name, dnsmasq, unbound, RPZ), recognised line by line unless \
      --input-format forces one. Invalid lines are counted by reason with samples, never dropped silently. \
      Addresses in hosts lines are never carried over: a line sending a name to a real address is rejected.

      Allow rules (--allow FILE) win over every block: example.com allows it and its subdomains, \
      =example.com only that name, *.example.com only its subdomains, /regex/ what the expression matches. \
      Deny rules (--deny FILE) add names.

      The summary goes to standard error (or standard output with --json). Exit status: 0 on success, \
      1 when an input, rules file or the output cannot be used, 3 when an input held no valid name at all \
      (the output is still written from the others).
      """)

  @Argument(help: "List files to merge, or - for standard input.")
  var inputs: [String]

  @Option(name: .shortAndLong, help: "Output format.")
  var format: ListFormat = .hosts

  @Option(name: .shortAndLong, help: "Write here (atomically) instead of to standard output.")
  var output: String?

  @Option(help: "Read every input as this format instead of recognising each line.")
  var inputFormat: ListFormat?

  @Option(help: "Allow rules file (repeatable).")
  var allow: [String] = []

  @Option(help: "Deny rules file (repeatable).")
  var deny: [String] = []

  @Option(help: "Address for hosts output: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.")
  var address: String = "ipv4"

  @Option(help: "Names per hosts line.")
  var namesPerLine: Int = 1

  @Flag(help: "Keep names whose parent is also blocked, in formats that block subdomains.")
  var noCompress = false

  @Option(help: "The title in the output's header.")
  var title: String = "SaneHosts blocklist"

  @Flag(help: "Print the summary as JSON on standard output (requires --output).")
  var json = false

  @Flag(name: .shortAndLong, help: "Print nothing but errors.")
  var quiet = false

  func validate() throws {
    if json && output == nil {
      throw ValidationError("--json needs --output: the list itself would mix with the summary.")
    }
    if namesPerLine < 1 { throw ValidationError("--names-per-line must be at least 1, not \(namesPerLine).") }
    if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
    _ = try hostsAddress()
  }

  func hostsAddress() throws -> Renderer.HostsAddress {
    switch address {
    case "ipv4": return .ipv4
    case "ipv6": return .ipv6
    case "both": return .both
    default:
      guard Address.classify(address) != .none else {
        throw ValidationError("--address must be ipv4, ipv6, both or an IP address, not “\(address)”.")
      }
      return .custom(address)
    }
  }

  func run() async throws {
    let started = ContinuousClock.now
    var rules = RuleSet()
    do {
      for path in allow { rules.allow += try RuleSet.parse(try Self.read(path), origin: path) }
      for path in deny { rules.deny += try RuleSet.parse(try Self.read(path), origin: path, deny: true) }
    } catch let error as CompileError {
      throw CLIError(error)
    }
    let sources = inputs.map { input in
      input == "-"
        ? ListSource(name: "standard input", location: .standardInput, format: inputFormat)
        : ListSource.file(input, format: inputFormat)
    }
    let renderer = Renderer(
      format: format, hostsAddress: try hostsAddress(), namesPerLine: namesPerLine, compresses: !noCompress,
      title: title)

    let list: CompiledList
    let report: Renderer.Report
    do {
      list = try await Compiler().compile(sources, rules: rules)
      if let output {
        report = try await OutputFile.write(output) { (sink) async throws(CompileError) in
          try await renderer.renderConcurrently(list, to: &sink)
        }
      } else {
        var sink = ByteSink(descriptor: 1, path: "standard output")
        report = try await renderer.renderConcurrently(list, to: &sink)
      }
    } catch {
      throw CLIError(error)
    }

    let summary = CompileSummary(list: list, report: report, format: format, elapsed: ContinuousClock.now - started)
    if json {
      Terminal.writeOutput(summary.json() + "\n")
    } else if !quiet {
      Terminal.writeError(summary.text())
    }
    if list.sources.contains(where: { $0.findings.names == 0 }) { throw ExitCode(3) }
  }

  private static func read(_ path: String) throws -> String {
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw CLIError(CompileError.unreadable(path: path, detail: "not a readable UTF-8 text file"))
    }
  }
}

extension ListFormat: ExpressibleByArgument {}
