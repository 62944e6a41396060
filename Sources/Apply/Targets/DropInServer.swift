import Blocklists
import Foundation
import Traffic

/// One kind of DNS server that loads SaneHosts' drop-in: everything `apply`, the command line, the
/// dashboard and the docs know about it.
///
/// Each kind is one file in this folder, and one line in `ServerTarget.allCases`. The protocol's
/// defaults (below) are what most servers do; a kind overrides only where its server differs.
public protocol DropInServer: Sendable {
  /// The target's name on the command line, in the dashboard and in the ledger (`--target NAME`).
  var name: String { get }
  /// The server program, for messages.
  var server: String { get }
  /// The server's executable (and command) name: `--reload-pid` signals only a process running it.
  var program: String { get }
  /// What the dashboard's target menu calls it.
  var label: String { get }
  /// What the drop-in is and blocks, for `apply --help` and the docs (one sentence, no final stop).
  var summary: String { get }
  /// The format of the drop-in file.
  var format: OutputFormat { get }
  /// Where the drop-in goes unless the user chooses otherwise.
  var defaultOutput: String { get }
  /// The program that checks the drop-in, and the Debian package that provides it.
  var checker: (tool: String, package: String) { get }
  /// What the drop-in can express, as the real server answers it (checked by `SemanticsMatrixTests`).
  var capabilities: Capabilities { get }
  /// What the server still answers for a blocked name with this drop-in; `apply` says each.
  var leaks: [String] { get }
  /// How long `--verify` asks again for names not yet as applied after a reload.
  var settleAfterReload: Duration { get }
  /// What `--reload-socket` names for this server, or nil when it reloads without a socket.
  var reloadSocket: String? { get }
  /// An earlier default path of this kind's drop-in that `apply` names while it is still there.
  var formerOutput: String? { get }
  /// The query log the server writes, which `hits --log KIND:FILE` reads; nil when `hits` reads none of it.
  var queryLog: QueryLogFormat? { get }

  /// The renderer that writes the drop-in.
  func renderer(title: String, date: Date) -> Renderer
  /// Runs the server's own checker on the drop-in at `path`.
  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck
  /// How the server is usually reloaded when it runs as its distribution's service, for the drop-in at `output`.
  func defaultReload(output: String) -> ReloadMethod
  /// How `--reload` reloads the drop-in at `output`, with the user's choice of process, unit or socket.
  func reload(output: String, choice: ReloadChoice) -> ReloadMethod
  /// Why the user's choice cannot reload the drop-in at `output`, or nil when it can.
  func refusal(of choice: ReloadChoice, output: String) -> String?
  /// The configuration lines a user adds to the server's own configuration so it loads the drop-in.
  func instructions(output: String) -> String
  /// The file that makes the server load the zone at `output` (an absolute path), written beside it.
  func loader(output: String) -> (path: String, text: String)?
}

/// What a drop-in can say, as the real server answers it.
public struct Capabilities: Sendable, Hashable {
  /// A rule blocks the name's subdomains too.
  public var subdomains: Bool
  /// An allow rule under a blocked parent is the server's own exception.
  public var exceptions: Bool
  /// Every record type is blocked (HTTPS and SVCB with their address hints, TXT, MX), not only A and AAAA.
  public var everyRecordType: Bool
  /// A name whose CNAME leads to a blocked name is blocked too.
  public var cnameTargets: Bool

  /// A drop-in's capabilities.
  public init(subdomains: Bool, exceptions: Bool, everyRecordType: Bool, cnameTargets: Bool) {
    self.subdomains = subdomains
    self.exceptions = exceptions
    self.everyRecordType = everyRecordType
    self.cnameTargets = cnameTargets
  }

  /// The capabilities as short phrases, for `--help` and the docs.
  public var phrases: [String] {
    [
      subdomains ? "subdomains" : "exact names only", exceptions ? "allow exceptions" : "no exceptions",
      everyRecordType ? "every record type" : "A and AAAA only", cnameTargets ? "CNAME targets" : nil,
    ].compactMap { $0 }
  }
}

/// How the user asked `--reload` to reload: a process to signal, a systemd unit, or a control socket.
public struct ReloadChoice: Sendable, Hashable {
  /// `--reload-pid`: send SIGHUP to this process.
  public var pid: Int32?
  /// `--reload-unit`: reload this systemd unit.
  public var unit: String?
  /// `--reload-socket`: the server's control socket (or socket folder).
  public var socket: String?

  /// A reload choice; all nil: the server's usual reload.
  public init(pid: Int32? = nil, unit: String? = nil, socket: String? = nil) {
    self.pid = pid
    self.unit = unit
    self.socket = socket
  }
}

extension DropInServer {
  public var label: String { server }
  public var leaks: [String] { [] }
  public var settleAfterReload: Duration { .seconds(2) }
  public var reloadSocket: String? { nil }
  public var formerOutput: String? { nil }
  public var queryLog: QueryLogFormat? { nil }

  public func renderer(title: String, date: Date) -> Renderer {
    Renderer(format: format, title: title, date: date)
  }

  /// A process or a unit, else the usual reload.
  public func reload(output: String, choice: ReloadChoice) -> ReloadMethod {
    if let pid = choice.pid { return .signal(pid: pid, program: program) }
    if let unit = choice.unit { return .systemd(unit: unit) }
    return defaultReload(output: output)
  }

  public func refusal(of choice: ReloadChoice, output: String) -> String? { nil }

  public func loader(output: String) -> (path: String, text: String)? { nil }

  /// Runs `checker` with `arguments`: passed on status 0, unavailable when it is not installed.
  func runChecker(_ arguments: [String], runner: any ProcessRunning) async -> ConfigCheck {
    let tool = checker.tool
    do {
      let output = try await runner.run(tool, arguments)
      return output.status == 0 ? .passed(tool: tool) : .failed(tool: tool, output: output.combined)
    } catch ProcessRunner.Error.notFound {
      return .unavailable(tool: tool)
    } catch {
      return .failed(tool: tool, output: error.localizedDescription)
    }
  }
}
