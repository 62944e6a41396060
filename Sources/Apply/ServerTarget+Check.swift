import Foundation

extension ServerTarget {
  /// The program that checks this target's files.
  public var checker: String {
    switch self {
    case .dnsmasq, .dnsmasqHosts: "dnsmasq"
    case .unbound: "unbound-checkconf"
    // PowerDNS Recursor and Knot Resolver have no checker for a zone; BIND's checks the same RPZ file (a
    // zone the recursor cannot parse is dropped whole on reload, turning blocking off).
    case .bind, .pdnsRecursor, .knotResolver: "named-checkzone"
    }
  }

  /// The Debian package that provides `checker`.
  public var checkerPackage: String {
    switch self {
    case .dnsmasq, .dnsmasqHosts: "dnsmasq-base"
    case .unbound: "unbound"
    case .bind, .pdnsRecursor, .knotResolver: "bind9-utils"
    }
  }

  /// Runs the server's own checker on the drop-in at `path`.
  ///
  /// dnsmasq's `--test` checks the syntax of configuration files only, so for the hosts target it checks
  /// the option and this function checks that the file can be read. Unbound's checker needs a whole
  /// configuration, so it gets a temporary one that includes the file and needs no chroot, user or pid file.
  public func check(_ path: String, runner: any ProcessRunning) async -> ConfigCheck {
    let tool = checker
    do {
      let output: ProcessOutput
      switch self {
      case .dnsmasq:
        // --conf-file replaces /etc/dnsmasq.conf, so only our file is checked.
        output = try await runner.run(tool, ["--test", "--conf-file=\(path)"])
      case .dnsmasqHosts:
        guard FileManager.default.isReadableFile(atPath: path) else {
          return .failed(tool: tool, output: "cannot read \(path)")
        }
        output = try await runner.run(tool, ["--test", "--conf-file=/dev/null", "--no-hosts", "--addn-hosts=\(path)"])
      case .unbound:
        output = try await checkUnbound(path, runner: runner)
      case .bind, .pdnsRecursor, .knotResolver:
        output = try await runner.run(tool, [Self.rpzZone, path])
      }
      return output.status == 0 ? .passed(tool: tool) : .failed(tool: tool, output: output.combined)
    } catch ProcessRunner.Error.notFound {
      return .unavailable(tool: tool)
    } catch {
      return .failed(tool: tool, output: error.localizedDescription)
    }
  }

  /// A configuration that includes only `path`, for `unbound-checkconf`.
  static func unboundWrapper(including path: String, directory: String) -> String {
    """
    server:
      chroot: ""
      username: ""
      directory: "\(directory)"
      pidfile: ""
      include: "\(path)"

    """
  }

  private func checkUnbound(_ path: String, runner: any ProcessRunning) async throws -> ProcessOutput {
    let directory = FileManager.default.temporaryDirectory.appending(path: "sanehosts-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let wrapper = directory.appending(path: "unbound.conf")
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    try Data(Self.unboundWrapper(including: absolute, directory: directory.path).utf8).write(to: wrapper)
    return try await runner.run(checker, [wrapper.path])
  }
}
