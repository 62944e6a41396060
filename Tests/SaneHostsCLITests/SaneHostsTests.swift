import Apply
import Foundation
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("The sanehosts command")
struct SaneHostsTests {
  @Test("--version prints the version")
  func version() async throws {
    let result = try await CommandRunner().run(["--version"])
    #expect(result.status == 0)
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
  }

  @Test("--help lists the commands that exist, and only those")
  func help() async throws {
    let result = try await CommandRunner().run(["--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("fetch"))
    #expect(result.standardOutput.contains("BLOCKLISTS"))
    #expect(result.standardOutput.contains("SOURCES AND PROFILES"))
    #expect(result.standardOutput.contains("APPLYING"))
    #expect(result.standardOutput.contains("TESTING A BLOCKER"))
    #expect(result.standardOutput.contains("DASHBOARD"))
    for command in [
      "status", "update", "sources", "profile", "allow", "deny", "catalog", "compile", "apply", "disable", "restore",
      "schedule", "test", "history", "registry", "pihole", "serve",
    ] {
      #expect(result.standardOutput.contains("  \(command) "), "\(command) is listed")
    }
    for missing in ["hardening", "fuzz"] {
      #expect(!result.standardOutput.contains("  \(missing) "), "no placeholder for \(missing)")
    }
  }

  @Test("Shell completion scripts are generated")
  func completions() async throws {
    for shell in ["bash", "zsh", "fish"] {
      let result = try await CommandRunner().run(["--generate-completion-script", shell])
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("fetch"))
    }
  }

  @Test("apply's --verify takes an optional value: alone (last or before an option) it means the system resolver")
  func optionalVerifyValue() {
    #expect(SaneHosts.optionalValues(["apply", "--verify"]) == ["apply", "--verify=system"])
    #expect(SaneHosts.optionalValues(["apply", "--verify", "--quiet"]) == ["apply", "--verify=system", "--quiet"])
    #expect(SaneHosts.optionalValues(["apply", "--verify", "127.0.0.1:53"]) == ["apply", "--verify", "127.0.0.1:53"])
    #expect(SaneHosts.optionalValues(["test", "--verify"]) == ["test", "--verify"])
  }

  @Test("A mistyped command gets the closest one; a missing folder for --hosts-file is named as such")
  func suggestions() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let top = try await cli.run("updat")
    #expect(top.status == 64)
    #expect(top.standardError.contains("Did you mean `sanehosts update`?"), "\(top.standardError)")
    let nested = try await cli.run("sources", "lst")
    #expect(nested.standardError.contains("Did you mean `sanehosts sources list`?"))
    #expect(SaneHosts.misspelledSubcommand(["history", "show", "3"]) == nil)
    #expect(SaneHosts.misspelledSubcommand(["compile", "list.txt"]) == nil)
    #expect(SaneHosts.distance("kitten", "sitting") == 3)
    try await cli.ok("sources", "add", "adaway")
    let apply = try await cli.run("apply", "--hosts-file", "/nonexistent/folder/hosts")
    #expect(apply.standardError.contains("the folder /nonexistent/folder does not exist"), "\(apply.standardError)")
    #expect(!apply.standardError.contains("lsattr"))
  }

  @Test(
    "scripts/install.sh puts the binary, completions for bash, zsh and fish, and a man page under a prefix; --uninstall removes them and the folders it made"
  )
  func install() async throws {
    let prefix = try TemporaryDirectory(prefix: "sanehosts-install")
    defer { prefix.remove() }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let script = root.appending(path: "scripts/install.sh").path
    let binary = try CommandRunner().executable.path
    let runner = ProcessRunner()
    // Folders that were there before: an empty bin/ and a man section of something else.
    try FileManager.default.createDirectory(at: prefix.file("bin"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: prefix.file("share/man/man5"), withIntermediateDirectories: true)
    try Data().write(to: prefix.file("share/man/man5/other.5"))
    let installed = try await runner.run("/bin/bash", [script, "--prefix", prefix.url.path, "--binary", binary])
    #expect(installed.status == 0, "\(installed.combined)")
    for file in [
      "bin/sanehosts", "share/bash-completion/completions/sanehosts", "share/zsh/site-functions/_sanehosts",
      "share/fish/vendor_completions.d/sanehosts.fish", "share/man/man1/sanehosts.1",
    ] {
      #expect(FileManager.default.fileExists(atPath: prefix.file(file).path), "\(file)")
    }
    // Installed stripped: smaller than the built file, and it still runs.
    let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
    #expect(size(prefix.file("bin/sanehosts").path) <= size(binary))
    let version = try await runner.run(prefix.file("bin/sanehosts").path, ["--version"])
    #expect(version.standardOutput.contains("0.1.0"))
    let man = try String(contentsOf: prefix.file("share/man/man1/sanehosts.1"), encoding: .utf8)
    #expect(man.hasPrefix(".TH SANEHOSTS 1") && man.contains("sanehosts apply"))
    // Regression: the page held only the top-level --help. Every subcommand, nested ones too, has its
    // own section with its whole help.
    for command in ["sources add", "profile delete", "schedule install", "history diff", "pihole sync"] {
      #expect(man.contains(".SS \"sanehosts \(command)\""), "\(command)")
    }
    #expect(man.contains("USAGE: sanehosts profile delete") && man.contains("--force"))
    #expect(!man.contains("generate-manual"), "the hidden command stays out of it")
    // The sections a Debian user looks for, after the commands; every drop-in's default path in FILES.
    let sections = man.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map(String.init)
    #expect(sections.suffix(4) == [".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH FILES", ".SH SEE ALSO"], "\(sections)")
    for path in [
      "/var/lib/bind/db.sanehosts.rpz", "/etc/unbound/unbound.conf.d/sanehosts.conf", "/etc/default/sanehosts",
    ] {
      #expect(man.contains(".I \(path)\n"), "\(path)")
    }
    #expect(man.contains(".B SANEHOSTS_HOME") && man.contains(".B 75\n") && man.contains(".B 141\n"))
    // Installed completions ask the program for the store's values (dynamic completion).
    let bash = try String(contentsOf: prefix.file("share/bash-completion/completions/sanehosts"), encoding: .utf8)
    #expect(bash.contains("---completion"))
    let removed = try await runner.run("/bin/bash", [script, "--prefix", prefix.url.path, "--uninstall"])
    #expect(removed.status == 0)
    #expect(!FileManager.default.fileExists(atPath: prefix.file("bin/sanehosts").path))
    // The folders the install made go once empty, each said; those that were there before stay.
    for folder in ["share/bash-completion", "share/zsh", "share/fish", "share/man/man1", "share/sanehosts"] {
      #expect(!FileManager.default.fileExists(atPath: prefix.file(folder).path), "\(folder)")
      #expect(removed.standardOutput.contains("removed \(prefix.file(folder).path)/"), "\(removed.combined)")
    }
    #expect(prefix.contents() == ["bin", "share"])
    #expect(FileManager.default.fileExists(atPath: prefix.file("share/man/man5/other.5").path))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: prefix.file("bin").path)) == [])
  }

  @Test(
    "Regression: completion offers the store's source keys and profile names and the catalog's ids, as the shells ask for them"
  )
  func dynamicCompletion() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await cli.ok("sources", "add", "adaway")
    try await cli.ok("profile", "create", "family")
    let keys = try await cli.run("---completion", "sources", "remove", "--", "positional@0", "0", "0", "")
    #expect(keys.standardOutput.split(separator: "\n").contains("adaway"), "\(keys.standardError)")
    let profiles = try await cli.run("---completion", "update", "--", "--profile", "1", "1", "--profile", "f")
    #expect(profiles.standardOutput.split(separator: "\n") == ["family"], "\(profiles.standardError)")
    let catalog = try await cli.run("---completion", "sources", "add", "--", "positional@0", "0", "3", "ada")
    #expect(catalog.standardOutput.split(separator: "\n").contains("adaway"), "\(catalog.standardError)")
    let groff = try? await ProcessRunner().run("/usr/bin/groff", ["-v"])
    guard groff?.status == 0 else { return }
    let page = try await cli.ok("generate-manual", "--date", "2026-11-27")
    let file = cli.directory.file("sanehosts.1")
    try Data(page.utf8).write(to: file)
    let rendered = try await ProcessRunner().run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", file.path])
    #expect(rendered.status == 0 && rendered.combined.isEmpty, "groff: \(rendered.combined)")
  }

  @Test(
    "Regression: `help` of a command that does not exist is a usage error (exit 64; it printed the top help, exit 0); the exit statuses are in --help"
  )
  func helpOfNothing() async throws {
    let runner = try CommandRunner()
    let result = try await runner.run(["help", "nope"])
    #expect(result.status == 64, "\(result.standardError)")
    #expect(result.standardError.contains("“nope” is not a command of `sanehosts`"), "\(result.standardError)")
    let nested = try await runner.run(["help", "sources", "nope"])
    #expect(nested.status == 64 && nested.standardError.contains("`sanehosts sources`"), "\(nested.standardError)")
    #expect(try await runner.run(["help", "sources", "add"]).status == 0)
    let help = try await runner.run(["--help"])
    #expect(help.standardOutput.contains("64 for a usage error"), "\(help.standardOutput)")
  }
}
