import Blocklists
import Foundation
import Traffic

/// Unbound, `server:` then `local-zone: "name." always_null`: the name and its subdomains.
struct Unbound: DropInServer {
  var name: String { "unbound" }
  var server: String { "unbound" }
  var program: String { "unbound" }
  var queryLog: QueryLogFormat? { .unbound }
  var summary: String { "local-zone always_null: the names and their subdomains, every record type" }
  var format: OutputFormat { .unbound }
  var defaultOutput: String { "/etc/unbound/unbound.conf.d/sanehosts.conf" }
  var checker: (tool: String, package: String) { ("unbound-checkconf", "unbound") }
  var capabilities: Capabilities {
    Capabilities(subdomains: true, exceptions: true, everyRecordType: true, cnameTargets: false)
  }
  var leaks: [String] {
    [
      "\(ServerTarget.cnameLeak): unbound's local zones match only the name asked; an exact allow rule (=name) under a blocked parent is a transparent zone, which lets the name's unlisted subdomains through too."
    ]
  }

  /// Unbound's checker needs a whole configuration, so it gets a temporary one that includes the file and
  /// needs no chroot, user or pid file.
  func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    let directory = FileManager.default.temporaryDirectory.appending(path: "sanehosts-check-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let wrapper = directory.appending(path: "unbound.conf")
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try Data(Self.wrapper(including: absolute, directory: directory.path).utf8).write(to: wrapper)
    } catch {
      return .failed(tool: checker.tool, output: error.localizedDescription)
    }
    return await runChecker([wrapper.path], runner: runner)
  }

  /// A configuration that includes only `path`, for `unbound-checkconf`.
  static func wrapper(including path: String, directory: String) -> String {
    """
    server:
      chroot: ""
      username: ""
      directory: "\(directory)"
      pidfile: ""
      include: "\(path)"

    """
  }

  /// unbound-control first (it needs the remote-control socket), else the service's reload.
  func defaultReload(output: String) -> ReloadMethod { .firstOf([.unboundControl, .systemd(unit: "unbound")]) }

  func instructions(output: String) -> String { "include: \"\(output)\"" }
}

extension ServerTarget {
  /// Unbound with local zones (see `Unbound`).
  public static let unbound = ServerTarget(Unbound())
}
