import Crypto
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// Fault injection on the disk, end to end through `sanehosts`: a data directory or hosts file on a
/// small tmpfs filled to the last byte, and a data directory remounted read-only. Each runs in a private
/// mount namespace, so nothing outside the test's temporary folder is mounted or touched.
@Suite(
  "Disk faults: a full disk or a read-only data directory loses nothing",
  .serialized, .enabled(if: MountNamespace.isAvailable, "needs root and unshare for a private mount namespace"))
struct DiskFaultTests {
  /// A data directory with one source updated from a local server, whose next version is much larger.
  struct Fixture {
    let cli: StoreCLI
    let server: FixtureServer
    var hosts: URL { cli.directory.file("hosts") }
    var mount: URL { cli.directory.file("mnt") }
    var out: URL { cli.directory.file("out") }
    static let userHosts = "127.0.0.1 localhost\n::1 localhost ip6-localhost\n10.0.0.5 printer.lan\n"

    static func make(_ server: FixtureServer) async throws -> Fixture {
      let fixture = Fixture(cli: try StoreCLI(), server: server)
      server.route("/list", .resource(.init(names(100, prefix: "old"), etag: "\"1\"")))
      try await fixture.cli.ok("sources", "add", server.url("/list").absoluteString, "--name", "list")
      try await fixture.cli.ok("update", "--quiet")
      // The next version: about 2 MB, more than the space left on a full disk.
      server.route("/list", .resource(.init(names(60_000, prefix: "new"), etag: "\"2\"")))
      try Data(userHosts.utf8).write(to: fixture.hosts)
      for folder in [fixture.mount, fixture.out] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      return fixture
    }

    static func names(_ count: Int, prefix: String) -> String {
      (0..<count).map { "0.0.0.0 \(prefix)-tracker-\($0).website\n" }.joined()
    }

    /// Runs a script in a private mount namespace with the fixture's paths in its environment.
    func run(_ script: String) async throws -> String {
      let (status, output) = try await MountNamespace.run(
        "set -u\n" + script,
        environment: [
          "SANEHOSTS": try CommandRunner().executable.path, "DATA": cli.dataDirectory.path, "MNT": mount.path,
          "OUT": out.path, "HOSTS": hosts.path, "TERM": "dumb", "SANEHOSTS_HOME": "/nonexistent",
        ])
      #expect(status == 0, "the script itself failed: \(output)")
      print("---- script output\n\(output)")
      return output
    }

    /// The value a script printed as `name=value`.
    func value(_ name: String, in output: String) -> String? {
      output.split(separator: "\n").last { $0.hasPrefix("\(name)=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// Every file under a directory with its SHA-256, one line each, sorted.
    static func digests(_ directory: URL) throws -> [String] {
      let manager = FileManager.default
      guard let walker = manager.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
        return []
      }
      var lines: [String] = []
      for case let file as URL in walker
      where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        let digest = SHA256.hash(data: try Data(contentsOf: file))
        lines.append("\(file.path.dropFirst(directory.path.count)) \(digest)")
      }
      return lines.sorted()
    }

    /// Opens a data directory and checks that SQLite finds the database intact; returns the source's
    /// names.
    static func intactNames(in directory: URL) async throws -> [String] {
      let store = try Store.open(DataDirectory(url: directory))
      let check = try await store.database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
      #expect(check == ["ok"], "integrity_check: \(check)")
      let source = try #require(try store.sources().first?.source)
      return await store.names(of: source)
    }

    func remove() { cli.remove() }
  }

  /// Fills a tmpfs to the last byte, so the next write of any size fails with ENOSPC; then frees
  /// `leaving` bytes again.
  static func fill(leaving: Int = 0) -> String {
    """
    dd if=/dev/zero of="$MNT/filler" bs=4096 2>/dev/null
    dd if=/dev/zero of="$MNT/filler-tail" bs=1 2>/dev/null
    [ \(leaving) -eq 0 ] || truncate -s -\(leaving) "$MNT/filler"
    echo "free=$(df --output=avail -B1 "$MNT" | tail -1 | tr -d ' ')"
    """
  }

  @Test(
    "Update with the data directory's disk full, or too full for the new list: a clear error, the database and the old copy intact",
    arguments: [0, 512 * 1024])
  func updateWithDiskFull(leaving: Int) async throws {
    try await FixtureServer.with { server in
      let fixture = try await Fixture.make(server)
      defer { fixture.remove() }
      let before = try await Fixture.intactNames(in: fixture.cli.dataDirectory)
      #expect(before.count == 100)

      let output = try await fixture.run(
        """
        mount -t tmpfs -o size=4m tmpfs "$MNT"
        cp -a "$DATA" "$MNT/data"
        \(Self.fill(leaving: leaving))
        "$SANEHOSTS" update --force --data-dir "$MNT/data"
        echo "update=$?"
        rm -f "$MNT/filler" "$MNT/filler-tail"
        cp -a "$MNT/data" "$OUT/data"
        """)
      #expect(fixture.value("free", in: output) == "\(leaving)", "\(output)")
      #expect(fixture.value("update", in: output) != "0", "\(output)")
      if leaving == 0 {
        // Not even SQLite's shared-memory file fits: the store says the disk is full.
        #expect(output.contains("is full (0 bytes free); nothing was changed"), "\(output)")
        #expect(output.contains("Free some space"), "the message says what to do: \(output)")
      } else {
        // The store opens; the new list does not fit in staging.
        #expect(output.contains("list: Could not read or write"), "\(output)")
        #expect(output.contains("No space left on device"), "\(output)")
        #expect(output.contains("free disk space"), "the message says what to do: \(output)")
      }
      #expect(!output.contains("Fatal error"), "\(output)")

      let after = try await Fixture.intactNames(in: fixture.out.appending(path: "data"))
      #expect(after == before, "the old copy's names are still there")
      let staging = fixture.out.appending(path: "data/staging")
      #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
    }
  }

  @Test("A read-only data directory: every command that writes says so, and not one byte changes")
  func readOnlyDataDirectory() async throws {
    try await FixtureServer.with { server in
      let fixture = try await Fixture.make(server)
      defer { fixture.remove() }
      let before = try Fixture.digests(fixture.cli.dataDirectory)

      let output = try await fixture.run(
        """
        mount --bind "$DATA" "$DATA"
        mount -o remount,bind,ro "$DATA"
        touch "$DATA/probe" 2>/dev/null && { echo "the remount is not read-only"; exit 97; }
        "$SANEHOSTS" update --force --data-dir "$DATA"
        echo "update=$?"
        "$SANEHOSTS" sources add https://example.org/list.txt --name other --data-dir "$DATA"
        echo "add=$?"
        "$SANEHOSTS" apply --hosts-file "$HOSTS" --data-dir "$DATA"
        echo "apply=$?"
        """)
      for command in ["update", "add", "apply"] {
        #expect(fixture.value(command, in: output) != "0", "\(command): \(output)")
      }
      #expect(output.contains("is not writable"), "\(output)")
      #expect(!output.contains("Fatal error"), "\(output)")
      #expect(try Fixture.digests(fixture.cli.dataDirectory) == before, "not one file of the data directory changed")
      #expect(try String(contentsOf: fixture.hosts, encoding: .utf8) == Fixture.userHosts)
      #expect(try await Fixture.intactNames(in: fixture.cli.dataDirectory).count == 100)
    }
  }

  @Test("Apply with the hosts file's disk full: the original file intact, no temporary file left")
  func applyWithHostsDiskFull() async throws {
    try await FixtureServer.with { server in
      let fixture = try await Fixture.make(server)
      defer { fixture.remove() }
      let output = try await fixture.run(
        """
        mount -t tmpfs -o size=1m tmpfs "$MNT"
        cp "$HOSTS" "$MNT/hosts"
        \(Self.fill())
        "$SANEHOSTS" apply --hosts-file "$MNT/hosts" --data-dir "$DATA"
        echo "apply=$?"
        cp "$MNT/hosts" "$OUT/hosts"
        ls -A "$MNT" | tr '\\n' ' ' | sed 's/^/files=/'; echo
        """)
      #expect(fixture.value("free", in: output) == "0", "\(output)")
      #expect(fixture.value("apply", in: output) != "0", "\(output)")
      #expect(output.contains("No space left on device"), "\(output)")
      #expect(!output.contains("Fatal error"), "\(output)")
      #expect(try String(contentsOf: fixture.out.appending(path: "hosts"), encoding: .utf8) == Fixture.userHosts)
      #expect(fixture.value("files", in: output)?.split(separator: " ").sorted() == ["filler", "filler-tail", "hosts"])
    }
  }

  @Test("Apply with the data directory's disk full (no room for the backup): the hosts file is not touched")
  func applyWithBackupDiskFull() async throws {
    try await FixtureServer.with { server in
      let fixture = try await Fixture.make(server)
      defer { fixture.remove() }
      let output = try await fixture.run(
        """
        mount -t tmpfs -o size=4m tmpfs "$MNT"
        cp -a "$DATA" "$MNT/data"
        \(Self.fill())
        "$SANEHOSTS" apply --hosts-file "$HOSTS" --data-dir "$MNT/data"
        echo "apply=$?"
        """)
      #expect(fixture.value("free", in: output) == "0", "\(output)")
      #expect(fixture.value("apply", in: output) != "0", "\(output)")
      #expect(output.contains("is full (0 bytes free); nothing was changed"), "\(output)")
      #expect(!output.contains("Fatal error"), "\(output)")
      #expect(try String(contentsOf: fixture.hosts, encoding: .utf8) == Fixture.userHosts)
    }
  }
}
