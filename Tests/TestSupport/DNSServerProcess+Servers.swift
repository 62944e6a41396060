import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension DNSServerProcess {
  /// Starts dnsmasq (package dnsmasq-base) on a free port of 127.0.0.1 with `arguments` added, runs `body`,
  /// stops it.
  ///
  /// It stays in the foreground, logs to its standard error, reads neither /etc/dnsmasq.conf nor
  /// /etc/hosts nor resolv.conf, has no upstream server and writes no pid file. As root it keeps root
  /// (`--user=root`) so that files it reads again on SIGHUP need no permissions for `nobody`.
  public static func withDnsmasq<R>(
    arguments: [String], directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let dnsmasq = try RequiredTool.path("dnsmasq", package: "dnsmasq-base")
    var fixed = [
      "--keep-in-foreground", "--listen-address=127.0.0.1", "--bind-interfaces", "--no-resolv", "--no-hosts",
      "--pid-file=",
    ]
    // Its log to standard error, unless the caller gives it a file (dnsmasq refuses the option twice).
    if !arguments.contains(where: { $0.hasPrefix("--log-facility") }) { fixed.append("--log-facility=-") }
    if geteuid() == 0 { fixed.append("--user=root") }
    // --conf-file keeps /etc/dnsmasq.conf out; callers add their own files with more --conf-file options.
    if !arguments.contains(where: { $0.hasPrefix("--conf-file") }) { fixed.append("--conf-file=/dev/null") }
    return try await with(
      dnsmasq, arguments: { ["--port=\($0)"] + fixed + arguments },
      logFile: { directory.appending(path: "dnsmasq-\($0).log") }, body)
  }

  /// The configuration of an unbound that serves on 127.0.0.1:`port` only, in the foreground, with no
  /// chroot, user change, pid file, syslog or remote control, and `serverLines` added to `server:`.
  public static func unboundConfiguration(port: UInt16, directory: URL, serverLines: [String]) -> String {
    let lines =
      [
        "interface: 127.0.0.1", "port: \(port)", "do-daemonize: no", "chroot: \"\"", "username: \"\"",
        "directory: \"\(directory.path)\"", "pidfile: \"\"", "use-syslog: no", "logfile: \"\"",
        "do-not-query-localhost: no",
      ] + serverLines
    return "server:\n" + lines.map { "  \($0)\n" }.joined() + "remote-control:\n  control-enable: no\n"
  }

  /// Starts unbound (package unbound) on a free port with `unboundConfiguration`, runs `body`, stops it.
  public static func withUnbound<R>(
    serverLines: [String], directory: URL, _ body: (DNSServerProcess) async throws -> R
  ) async throws -> R {
    let unbound = try RequiredTool.path("unbound", package: "unbound")
    return try await with(
      unbound,
      arguments: { port in
        let configuration = directory.appending(path: "unbound-\(port).conf")
        try Data(unboundConfiguration(port: port, directory: directory, serverLines: serverLines).utf8).write(
          to: configuration)
        return ["-d", "-c", configuration.path]
      }, logFile: { directory.appending(path: "unbound-\($0).log") }, body)
  }
}
