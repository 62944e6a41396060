import Blocklists
import Foundation
import Traffic

/// A local DNS server that loads SaneHosts' list as a drop-in file: one of the kinds in `allCases`.
///
/// The value is a name (`--target NAME`, the ledger's target, the dashboard's menu) and the kind that
/// knows everything else. Adding a server is one new `DropInServer` file in this folder and its line here.
public struct ServerTarget: Sendable, Hashable, CaseIterable, RawRepresentable, Codable, CustomStringConvertible {
  /// Every kind of server a drop-in can be written for, in the order help and menus list them.
  public static let allCases: [ServerTarget] = [.dnsmasq, .dnsmasqHosts, .unbound, .bind, .pdnsRecursor, .knotResolver]

  /// What this kind of server is and does.
  public let kind: any DropInServer

  /// A target for `kind`.
  init(_ kind: any DropInServer) { self.kind = kind }

  /// The target named `rawValue`, or nil when there is none.
  public init?(rawValue: String) {
    guard let found = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = found
  }

  /// The query log the server writes (`hits --log KIND:FILE`), from its kind.
  public var queryLog: QueryLogFormat? { kind.queryLog }

  /// The servers whose query log is of `kind`, in the table's order: the first is the target a log of
  /// that kind is counted against when nothing says how the profile was applied.
  public static func writing(_ kind: QueryLogFormat) -> [ServerTarget] { allCases.filter { $0.queryLog == kind } }

  /// The target's name (`--target NAME`).
  public var rawValue: String { kind.name }
  public var description: String { rawValue }

  public static func == (lhs: ServerTarget, rhs: ServerTarget) -> Bool { lhs.rawValue == rhs.rawValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// The version of the drop-ins' shape, part of the ledger's content key: a drop-in written by an older
  /// shape is written again though the profile did not change (2: `server=/…/` lines for dnsmasq, and
  /// exceptions for allow rules under a blocked parent).
  public static let dropInVersion = 2

  /// The name of the response-policy zone the RPZ targets write.
  public static let rpzZone = Renderer.rpzOrigin

  /// The start of the leak every target but BIND's and PowerDNS Recursor's has.
  static let cnameLeak =
    "a name whose CNAME leads to a blocked name (CNAME cloaking) is answered with the real address"

  /// The server program, for messages.
  public var server: String { kind.server }
  /// What the dashboard's menu calls it.
  public var label: String { kind.label }
  /// The format of this target's file.
  public var format: OutputFormat { kind.format }
  /// Where the drop-in goes unless the user chooses otherwise.
  public var defaultOutput: String { kind.defaultOutput }
  /// The program that checks this target's files.
  public var checker: String { kind.checker.tool }
  /// The Debian package that provides `checker`.
  public var checkerPackage: String { kind.checker.package }
  /// What the server still answers for a blocked name with this drop-in; `apply` says each.
  public var leaks: [String] { kind.leaks }
  /// How long `--verify` asks again for names not yet as applied after a reload.
  public var settleAfterReload: Duration { kind.settleAfterReload }
  /// Whether the drop-in is a response-policy zone.
  public var isRPZ: Bool { format == .rpz }
  /// The extension of the drop-in's file name in a drop-in folder.
  public var fileExtension: String { isRPZ ? "rpz" : "conf" }

  /// Runs the server's own checker on the drop-in at `path`.
  public func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    await kind.check(path, runner: runner)
  }

  /// How the server is usually reloaded, for the drop-in at `output` (the default drop-in when nil).
  public func defaultReload(output: String? = nil) -> ReloadMethod {
    kind.defaultReload(output: output ?? defaultOutput)
  }

  /// How `--reload` reloads the drop-in at `output` (nil: the default), with the user's choice.
  public func reload(output: String?, choice: ReloadChoice) -> ReloadMethod {
    kind.reload(output: output ?? defaultOutput, choice: choice)
  }

  /// Why the user's choice cannot reload the drop-in at `output` (nil: the default), or nil when it can.
  public func refusal(of choice: ReloadChoice, output: String?) -> String? {
    kind.refusal(of: choice, output: output ?? defaultOutput)
  }

  /// The configuration lines a user adds to the server's configuration so it loads the drop-in at `output`.
  public func instructions(output: String) -> String { kind.instructions(output: output) }

  /// The path of the file that loads the zone at `output`, or nil for a target without one.
  public func loaderPath(output: String) -> String? { kind.loader(output: output)?.path }

  /// The loader file's text for the zone at `output` (an absolute path), or nil for a target without one.
  public func loader(output: String) -> String? { kind.loader(output: output)?.text }

  /// The renderer that writes this target's file.
  public func renderer(title: String, date: Date) -> Renderer { kind.renderer(title: title, date: date) }

  /// The drop-in file's bytes for `list`; an RPZ zone's serial follows `previous` (the serial of the
  /// file it replaces), strictly greater.
  public func render(_ list: CompiledList, title: String, date: Date, previous: ZoneSerial? = nil) async throws
    -> [UInt8]
  {
    var sink = ByteSink()
    var renderer = renderer(title: title, date: date)
    renderer.serial = ZoneSerial.next(after: previous, at: date)
    try await renderer.renderConcurrently(list, to: &sink)
    return sink.memory
  }

  /// Whether a line of a rendered drop-in changes on every render though the entries do not (the RPZ
  /// zone's SOA line carries a new serial); such lines alone are no reason to write, so an unchanged
  /// zone keeps its serial.
  public static func isVolatile(_ line: String) -> Bool { line.hasPrefix("@ IN SOA ") }

  /// Whether a line given as bytes is volatile (see `isVolatile(_:)` for text).
  public static func isVolatile(bytes line: UnsafeBufferPointer<UInt8>) -> Bool { line.starts(with: soaPrefix) }

  private static let soaPrefix = Array("@ IN SOA ".utf8)
}
